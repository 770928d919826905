import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** One file of a multipart upload, read into memory. */
export interface ReceivedFile {
  /** The base name the browser sent (no folders). */
  fileName: string;
  /**
   * The file's bytes, at most `maxFileBytes + 1` of them: a longer file is cut there, so the caller can tell
   * "too large" from "exactly at the limit" and answer for that file alone.
   */
  bytes: Buffer;
}

export interface UploadLimits {
  /** The form field the files arrive in. */
  field: string;
  maxFiles: number;
  maxFileBytes: number;
}

/** Why an upload as a whole was refused (each file's own problems are the caller's to report). */
export class UploadRefused extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'UploadRefused';
  }
}

/**
 * Lets the routes of `scope` (and only those) receive multipart uploads within `limits`; other fields and
 * parts are bounded too, so a body cannot grow without limit.
 */
export async function acceptUploads(scope: FastifyInstance, limits: UploadLimits): Promise<void> {
  await scope.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      // one more than allowed, so "too many files" is told apart from the parser's own limit
      files: limits.maxFiles + 1,
      fileSize: limits.maxFileBytes + 1,
      fields: 10,
      fieldSize: 1024,
      parts: limits.maxFiles + 11,
      headerPairs: 20,
    },
  });
}

function baseName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? '';
}

/**
 * After a refusal part-way through a body: the parser stopped reading, and a keep-alive connection cannot
 * carry the next request until the rest of this one has arrived (it sat there until the keep-alive timeout,
 * 72 s). A body of announced length (already checked against the route's limit) is read and thrown away, so
 * the connection stays usable; a body of unknown length may not end, so the reply closes the connection.
 */
function discardRestOfBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  raw.unpipe();
  if (request.headers['content-length'] === undefined) reply.header('connection', 'close');
  raw.resume();
}

/** The files of `limits.field` (with a name), in the order sent; other parts are read and dropped. */
export async function receiveFiles(request: FastifyRequest, reply: FastifyReply, limits: UploadLimits): Promise<ReceivedFile[]> {
  if (!request.isMultipart()) throw new UploadRefused('send the files as multipart/form-data');
  try {
    return await readFiles(request, limits);
  } catch (error) {
    discardRestOfBody(request, reply);
    throw error;
  }
}

/** How long the parser may take, once every byte of the body has arrived, before it is taken as stuck. */
export const parseGraceMs = 5_000;

/**
 * Refuses the upload when its whole body has arrived (Content-Length bytes) and the parser has still not finished
 * `graceMs` later. The multipart parser can stop for good on some malformed bodies (a bare CR inside a part's
 * header, with more than its buffer of data behind it): it neither ends nor fails, and the request would wait for
 * ever. Arrival is counted from the moment the parser is attached (the caller attaches it first: a listener added
 * before would start the stream and lose what the parser never saw). A body of unknown length is bounded by the
 * server's request timeout instead.
 */
function stuckParser(request: FastifyRequest, graceMs: number): { refused: Promise<never>; stop: () => void } {
  const announced = Number(request.headers['content-length']);
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  let refuse: (error: UploadRefused) => void = () => undefined;
  const refused = new Promise<never>((_resolve, reject) => {
    refuse = reject;
  });
  refused.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (Number.isFinite(announced) && received >= announced && timer === undefined) {
      timer = setTimeout(() => refuse(new UploadRefused('the multipart body cannot be read: its parts never end')), graceMs);
    }
  };
  request.raw.on('data', onData);
  return {
    refused,
    stop: () => {
      clearTimeout(timer);
      request.raw.off('data', onData);
    },
  };
}

async function readFiles(request: FastifyRequest, limits: UploadLimits): Promise<ReceivedFile[]> {
  const files: ReceivedFile[] = [];
  // the first step attaches the parser to the body (synchronously); the watch starts after it
  const parts = request.parts()[Symbol.asyncIterator]();
  const first = parts.next();
  const watch = stuckParser(request, parseGraceMs);
  try {
    for (let step = await Promise.race([first, watch.refused]); !step.done; step = await Promise.race([parts.next(), watch.refused])) {
      const part = step.value;
      if (part.type !== 'file') continue;
      const bytes = await Promise.race([part.toBuffer(), watch.refused]);
      const fileName = baseName(part.filename ?? '');
      if (part.fieldname !== limits.field || fileName === '') continue;
      files.push({ fileName, bytes });
      if (files.length > limits.maxFiles) throw new UploadRefused(`body/${limits.field} must hold at most ${limits.maxFiles} files`);
    }
  } catch (error) {
    if (error instanceof UploadRefused) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new UploadRefused(`body/${limits.field} must hold at most ${limits.maxFiles} files`);
    // busboy's own words for a malformed body ("Unexpected end of form", "Malformed part header", …)
    throw new UploadRefused(`the multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    watch.stop();
  }
  if (files.length === 0) throw new UploadRefused(`body/${limits.field} must hold at least one file`);
  return files;
}
