/** A virtual ISO 7816 card of a lab (its files are kept in a state file on the host while it is off the reader). */
export interface DownloadCard {
  serial: string;
}

export interface NewDownloadCard {
  /** Bytes of the data file 0101 (0: none, a card to format first). */
  dataSize?: number;
}

export interface IssuerSettings {
  port: number;
  /** The server's origin (CARD_ISSUER_ALLOWED_ORIGINS). */
  allowedOrigin: string;
}

/**
 * What the download scenario (download-scenario.ts) needs of a platform: the card issuer unpacked from its download as
 * an operator would, a PC/SC service with one virtual reader, and hands that put cards on that reader.
 */
export interface DownloadPlatform {
  /** The reader the issuer is told to use (CARD_READER_NAME). */
  readonly readerName: string;
  /** How long the platform's own set-up took, for the report (e.g. "root overlay 0.4 s, unzip 0.8 s"). */
  readonly timings: string[];
  /** Starts the issuer of the download with CARD_READER=pcsc, as its start script starts it; resolves once it answers. */
  startIssuer(settings: IssuerSettings): Promise<void>;
  /** Runs the download's card command (`card-issuer.mjs card …`); answers its output, rejects on a failure. */
  cardCommand(args: string[]): Promise<string>;
  newCard(options?: NewDownloadCard): DownloadCard;
  /**
   * Puts the card on the reader (taking off any other) and waits until the PC/SC service sees it. With `leaveAtUpdate`
   * the card leaves the reader by itself when that UPDATE BINARY of a write (from 0) arrives: pulled mid-write.
   */
  place(card: DownloadCard, options?: { leaveAtUpdate?: number }): Promise<void>;
  /** Takes the card off and waits until the PC/SC service sees the reader empty. */
  remove(): Promise<void>;
  /** Stops the smart-card service (pcscd) as a crash or an operator would. */
  stopService(): Promise<void>;
  /** Starts it again and waits until it lists the reader. */
  startService(): Promise<void>;
  /**
   * Where the download seals the issuer's device key to the PC (Windows: DPAPI): stops the issuer, makes this the
   * PC its data folder was copied to (another machine id), and starts the issuer again on the same folder.
   */
  restartAsCopyOnAnotherPc?(): Promise<void>;
  /** The issuer's log so far, for a failure's message. */
  issuerLog(): string;
  close(): Promise<void>;
}
