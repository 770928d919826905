#!/usr/bin/python3
"""A virtual ISO 7816 card on a vpcd reader slot that keeps its files while it is off the reader.

vicc's own ISO 7816 card forgets everything when it stops, but a card taken off a reader and put back must
hold what it held. This runs vicc's ISO 7816 card (python3-virtualsmartcard) against one vpcd slot and saves
its file system to --state after every command, so stopping the process, even with SIGKILL in the middle of a
write as when a card is pulled off a reader, leaves the card as it was after its last whole command.

A card made anew (no --state file yet) holds EF.GDO (2F02) with --serial as its ICC serial number (tag 5A),
which the card issuer's PC/SC driver reads as the card's fixed number, and, unless --data-size is 0, the
transparent data file --data-fid of --data-size zero bytes (--data-structure record makes it a record file, a
card the issuer cannot use).

--leave-at-update N takes the card off the reader when its N-th UPDATE BINARY (counting from 0) arrives: the
process ends at once, before that command is carried out or answered, as a card pulled off in the middle of a
write. A test of a card issuer running as its own process (the downloads under Wine) cannot pause it between two
commands, so the card itself picks the moment.

Run it with Debian's interpreter and a folder holding Crypto -> Cryptodome on PYTHONPATH (notes in
apps/card-issuer/test/support/pcsc-lab.ts, which starts it for the tests).
"""
import argparse
import os
import pickle
import signal
import sys

from virtualsmartcard.ConstantDefinitions import FDB
from virtualsmartcard.SmartcardFilesystem import MF, TransparentStructureEF, RecordStructureEF
from virtualsmartcard.SmartcardSAM import SAM
from virtualsmartcard.VirtualSmartcard import Iso7816OS, VirtualICC

UPDATE_BINARY = 0xD6


def new_card(serial, data_fid, data_size, data_structure):
    mf = MF(filedescriptor=FDB["DF"])
    serial_bytes = bytes.fromhex(serial)
    mf.append(TransparentStructureEF(parent=mf, fid=0x2F02, data=bytes([0x5A, len(serial_bytes)]) + serial_bytes))
    if data_size > 0:
        if data_structure == "record":
            mf.append(RecordStructureEF(parent=mf, fid=data_fid, filedescriptor=FDB["EFSTRUCTURE_LINEAR_FIXED_NOFURTHERINFO"]))
        else:
            mf.append(TransparentStructureEF(parent=mf, fid=data_fid, data=bytes(data_size)))
    sam = SAM(b"1234", serial.encode("ascii"), mf)
    return mf, sam


def save(state_file, mf, sam):
    side = state_file + ".tmp"
    with open(side, "wb") as out:
        pickle.dump((mf, sam), out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(side, state_file)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--state", required=True, help="file holding the card's files between runs")
    parser.add_argument("--port", type=int, default=35963, help="vpcd port of the reader slot (35963 is the first)")
    parser.add_argument("--serial", default="04A1B2C3", help="ICC serial number of a new card, hex")
    parser.add_argument("--data-fid", default="0101", help="file identifier of a new card's data file, hex")
    parser.add_argument("--data-size", type=int, default=544, help="bytes of a new card's data file (0: no file)")
    parser.add_argument("--data-structure", choices=["transparent", "record"], default="transparent")
    parser.add_argument("--leave-at-update", type=int, default=None, help="leave the reader when this UPDATE BINARY (from 0) arrives")
    args = parser.parse_args()

    if os.path.exists(args.state):
        with open(args.state, "rb") as stored:
            mf, sam = pickle.load(stored)
    else:
        mf, sam = new_card(args.serial, int(args.data_fid, 16), args.data_size, args.data_structure)
        save(args.state, mf, sam)

    icc = VirtualICC(None, "iso7816", "localhost", args.port)
    card_os = Iso7816OS(mf, sam)
    execute = card_os.execute

    updates = 0

    def execute_and_save(message):
        nonlocal updates
        if len(message) >= 2 and message[1] == UPDATE_BINARY:
            if updates == args.leave_at_update:
                os._exit(0)
            updates += 1
        answer = execute(message)
        save(args.state, card_os.mf, card_os.SAM)
        return answer

    card_os.execute = execute_and_save
    icc.os = card_os
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("card ready", flush=True)
    icc.run()


if __name__ == "__main__":
    main()
