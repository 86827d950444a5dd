#!/usr/bin/env python3
"""A hostile hub for tests: welcomes any hello, then hangs up on every score without answering.

    python3 hangup_hub.py --socket PATH

Prints "listening" once the socket is bound, then "hung up on ID" for each score.
"""
import argparse
import json
import os
import socket
import struct
import sys


def frame(message):
    data = json.dumps(message).encode()
    return struct.pack(">I", len(data)) + data


def read_frame(conn, buffer):
    while True:
        if len(buffer) >= 4:
            (length,) = struct.unpack(">I", buffer[:4])
            if len(buffer) >= 4 + length:
                return json.loads(buffer[4:4 + length]), buffer[4 + length:]
        chunk = conn.recv(65536)
        if not chunk:
            return None, buffer
        buffer += chunk


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    args = parser.parse_args()
    if os.path.exists(args.socket):
        os.unlink(args.socket)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(args.socket)
    server.listen(8)
    print("listening", flush=True)
    while True:
        conn, _ = server.accept()
        buffer = b""
        while True:
            message, buffer = read_frame(conn, buffer)
            if message is None:
                break
            if message["type"] == "hello":
                conn.sendall(frame({"type": "welcome", "body": {"protocolVersion": 1, "hubID": "hangup", "heartbeatIntervalMillis": 1000}}))
            elif message["type"] == "score":
                print(f"hung up on {message['body']['id']}", flush=True)
                break
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
