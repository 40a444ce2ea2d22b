"""Writes and checks NumPy .npy files for the coda-run tests, without numpy.

  npy.py write FILE DESCR SHAPE EXPR
      Writes an array of dtype DESCR ('<f4', '<f8', '<i4', '<i8', ...) and
      SHAPE ('37,64', '8' or '' for a scalar) whose element at flat index i is
      the Python expression EXPR of i (math and a seeded `random` available).
  npy.py random FILE DESCR SHAPE SEED MEAN STD
      Writes N(MEAN, STD^2) values from Python's random.Random(SEED).
  npy.py raw FILE HEADER DATA_BYTES
      Writes a file with the given header dict text and that many zero bytes
      of data (for malformed inputs); the header is padded as NumPy pads it.
  npy.py headers LIST DIR
      For each line NAME: HEADER of the file LIST, writes DIR/NAME/arg0.npy
      with that header and no data, as `raw` does.
  npy.py check FILE DESCR SHAPE EXPR [TOLERANCE]
      Reads FILE, checks its dtype and shape, and that element i is EXPR of i
      (exactly, or within TOLERANCE relative to max(1, |expected|)); an EXPR
      of None leaves the element unchecked. Prints
      'ok: N elements' or the first mismatches and exits 1.

The format (NEP 1): b'\\x93NUMPY', version 1.0, a little-endian uint16 header
length, the header dict padded with spaces and ending in '\\n' so that the
data starts at a multiple of 64 bytes, then the little-endian elements.
"""

import math
import os
import random
import struct
import sys

FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q",
           "<u1": "B"}


def parse_shape(text):
    return tuple(int(d) for d in text.split(",") if d.strip())


def header_bytes(header):
    # Magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
    pad = 64 - (10 + len(header) + 1) % 64
    if pad == 64:
        pad = 0
    text = header + " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode()


def shape_text(shape):
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(" + ", ".join(str(d) for d in shape) + ")"


def make_parent(path):
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)


def write(path, descr, shape, values):
    make_parent(path)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, shape_text(shape))
    code = FORMATS[descr]
    with open(path, "wb") as f:
        f.write(header_bytes(header))
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY" or data[6:8] != b"\x01\x00":
        raise SystemExit("%s: not a version 1.0 .npy file" % path)
    (length,) = struct.unpack("<H", data[8:10])
    if (10 + length) % 64 != 0:
        raise SystemExit("%s: data does not start at a multiple of 64" % path)
    header = eval(data[10:10 + length].decode())  # A Python dict literal.
    descr, shape = header["descr"], tuple(header["shape"])
    count = math.prod(shape)
    code = FORMATS[descr]
    body = data[10 + length:]
    if len(body) != count * struct.calcsize(code):
        raise SystemExit("%s: %d data bytes for shape %s" % (path, len(body),
                                                              shape))
    return descr, shape, list(struct.unpack("<%d%s" % (count, code), body))


def count_of(shape):
    return math.prod(shape)


def evaluate(expr, count, seed=0):
    rng = random.Random(seed)
    env = {"math": math, "random": rng}
    return [eval(expr, env, {"i": i}) for i in range(count)]


def write_raw(path, header, size):
    make_parent(path)
    with open(path, "wb") as f:
        f.write(header_bytes(header))
        f.write(b"\0" * size)


def main(argv):
    command = argv[1]
    if command == "write":
        path, descr, shape = argv[2], argv[3], parse_shape(argv[4])
        values = evaluate(argv[5], count_of(shape))
        if descr[1] in "iu":
            values = [int(v) for v in values]
        write(path, descr, shape, values)
    elif command == "random":
        path, descr, shape = argv[2], argv[3], parse_shape(argv[4])
        rng = random.Random(int(argv[5]))
        mean, std = float(argv[6]), float(argv[7])
        write(path, descr, shape,
              [rng.gauss(mean, std) for _ in range(count_of(shape))])
    elif command == "raw":
        write_raw(argv[2], argv[3], int(argv[4]))
    elif command == "headers":
        with open(argv[2]) as f:
            for line in f:
                if line.strip():
                    name, header = line.rstrip("\n").split(": ", 1)
                    write_raw(os.path.join(argv[3], name, "arg0.npy"), header, 0)
    elif command == "check":
        path, descr, shape = argv[2], argv[3], parse_shape(argv[4])
        tolerance = float(argv[6]) if len(argv) > 6 else 0.0
        got_descr, got_shape, got = read(path)
        if (got_descr, got_shape) != (descr, shape):
            print("%s: got %s %s, expected %s %s" % (path, got_descr,
                                                     got_shape, descr, shape))
            return 1
        expected = evaluate(argv[5], count_of(shape))
        bad = [(i, g, e) for i, (g, e) in enumerate(zip(got, expected))
               if e is not None and
               not abs(g - e) <= tolerance * max(1.0, abs(e))]
        for i, g, e in bad[:5]:
            print("%s: element %d is %r, expected %r" % (path, i, g, e))
        if bad:
            return 1
        print("ok: %d elements" % len(got))
    else:
        raise SystemExit("unknown command " + command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
