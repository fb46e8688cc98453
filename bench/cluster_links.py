#!/usr/bin/env python3
"""Plain TCP between two nodes of scripts/cluster.sh: the ground truth MPI's
figures are held against. Run by bench/cluster_links.sh, one end per node.

  cluster_links.py serve PORT
  cluster_links.py pingpong HOST PORT ROUND_TRIPS REPEATS   -> one half round trip (us) per repeat
  cluster_links.py stream HOST PORT BYTES REPEATS           -> one rate (Gbit/s) per repeat

Ping-pong: 1-byte messages with TCP_NODELAY, what MPI's smallest message
costs below MPI. Stream: BYTES sent in 1 MiB writes, timed from the first
byte to the receiver's acknowledgement of the last (the rate the shaper lets
through, not the socket buffer's)."""
import socket
import struct
import sys
import time


def receive_exactly(sock, count):
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise SystemExit("cluster_links.py: the other end closed the connection")
        data += chunk
    return bytes(data)


def serve(port):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("0.0.0.0", port))
    listener.listen(1)
    listener.settimeout(60)
    while True:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            return
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        mode, count = struct.unpack("!cQ", receive_exactly(conn, 9))
        if mode == b"q":
            return
        if mode == b"p":  # echo one byte, count times
            for _ in range(count):
                conn.sendall(receive_exactly(conn, 1))
        else:  # swallow count bytes, then acknowledge
            left = count
            while left:
                chunk = conn.recv(min(left, 1 << 20))
                if not chunk:
                    break
                left -= len(chunk)
            conn.sendall(b"k")
        conn.close()


def connect(host, port, mode, count):
    for _ in range(100):  # the server may still be starting
        try:
            sock = socket.create_connection((host, port), timeout=60)
            break
        except OSError:
            time.sleep(0.05)
    else:
        raise SystemExit(f"cluster_links.py: cannot reach {host}:{port}")
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(struct.pack("!cQ", mode, count))
    return sock


def pingpong(host, port, round_trips, repeats):
    for _ in range(repeats):
        sock = connect(host, port, b"p", round_trips + 100)
        for _ in range(100):  # warm-up
            sock.sendall(b"x")
            receive_exactly(sock, 1)
        start = time.perf_counter()
        for _ in range(round_trips):
            sock.sendall(b"x")
            receive_exactly(sock, 1)
        print(f"{(time.perf_counter() - start) / round_trips / 2 * 1e6:.2f}", flush=True)
        sock.close()


def stream(host, port, count, repeats):
    block = b"\0" * (1 << 20)
    for _ in range(repeats):
        sock = connect(host, port, b"s", count)
        start = time.perf_counter()
        left = count
        while left:
            left -= sock.send(block[: min(left, len(block))])
        receive_exactly(sock, 1)
        print(f"{count * 8 / (time.perf_counter() - start) / 1e9:.3f}", flush=True)
        sock.close()


def main(argv):
    if len(argv) >= 2 and argv[1] == "serve" and len(argv) == 3:
        serve(int(argv[2]))
    elif len(argv) == 6 and argv[1] in ("pingpong", "stream"):
        (pingpong if argv[1] == "pingpong" else stream)(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    elif len(argv) == 4 and argv[1] == "quit":
        connect(argv[2], int(argv[3]), b"q", 0).close()
    else:
        print("\n".join(__doc__.strip().splitlines()[3:6]), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
