#!/usr/bin/env python3
"""A TCP proxy in front of the cloud for one phone, to partition that phone alone.

    cloud_proxy.py TARGET_HOST TARGET_PORT [BYTES_PER_SECOND]

Prints "listening PORT" once it accepts connections on 127.0.0.1:PORT. SIGUSR1 cuts the link
(every open connection is reset, new ones are closed at once) until SIGUSR2 heals it. With
BYTES_PER_SECOND, each direction of each connection carries at most that many bytes a second:
a slow link that still works, as a phone's on a course with one bar.
"""
import signal
import socket
import sys
import threading
import time

target = (sys.argv[1], int(sys.argv[2]))
rate = int(sys.argv[3]) if len(sys.argv) > 3 else None
lock = threading.Lock()
open_sockets = set()
cut = threading.Event()


def pump(source, sink):
    try:
        while True:
            data = source.recv(4096 if rate else 65536)
            if not data:
                break
            if rate:
                time.sleep(len(data) / rate)
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def on_cut(signum, frame):
    cut.set()
    with lock:
        for s in list(open_sockets):
            try:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        open_sockets.clear()


def on_heal(signum, frame):
    cut.clear()


signal.signal(signal.SIGUSR1, on_cut)
signal.signal(signal.SIGUSR2, on_heal)

listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
# Python runs signal handlers on the main thread between bytecodes: a short accept timeout makes
# sure a cut or heal takes effect at once even when the signal lands on a pump thread.
listener.settimeout(0.05)
print("listening", listener.getsockname()[1], flush=True)
while True:
    try:
        client, _ = listener.accept()
    except (InterruptedError, socket.timeout):
        continue
    client.settimeout(None)
    if cut.is_set():
        client.close()
        continue
    try:
        upstream = socket.create_connection(target)
    except OSError:
        client.close()
        continue
    with lock:
        open_sockets.update((client, upstream))
    threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
    threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
