#!/usr/bin/env python3
"""A third-party Hyzer watch, written from docs/PROTOCOL.md and docs/schema alone (no Hyzer code).

    python3 hyzer_link_client.py --socket PATH --token-file FILE [--device ID]
    python3 hyzer_link_client.py --tcp HOST:PORT --fingerprint sha256:HEX --token-file FILE

Over TCP the link is TLS with the hub's self-signed certificate, pinned by its SHA-256
fingerprint (`hyzer-hub token --fingerprint`).

Runs a scenario against a running `hyzer-hub serve` and checks every answer, exiting 0 when all
hold and 1 naming the first that does not:

  pair; score (with a lowercase id, matched by string); correct its own score; one score for each
  rejection reason a watch can cause; a lost push caught up through the heartbeat's sequence.
"""
import argparse
import hashlib
import json
import socket
import ssl
import struct
import sys
import time
import uuid


class Link:
    def __init__(self, path=None, tcp=None, fingerprint=None):
        if path:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(path)
        else:
            host, port = tcp.rsplit(":", 1)
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE  # self-signed: the pinned fingerprint is the check
            self.sock = context.wrap_socket(socket.create_connection((host, int(port)), timeout=5))
            presented = "sha256:" + hashlib.sha256(self.sock.getpeercert(binary_form=True)).hexdigest()
            if presented != fingerprint.lower():
                raise ConnectionError(f"the hub presented {presented}, not the pinned {fingerprint}")
            print(f"ok  TLS to the hub pinned by {presented}")
        self.sock.settimeout(5)
        self.buffer = b""

    def send(self, kind, body):
        data = json.dumps({"type": kind, "body": body}).encode()
        self.sock.sendall(struct.pack(">I", len(data)) + data)

    def receive(self):
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack(">I", self.buffer[:4])
                if len(self.buffer) >= 4 + length:
                    frame, self.buffer = self.buffer[4:4 + length], self.buffer[4 + length:]
                    return json.loads(frame)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the hub closed the connection")
            self.buffer += chunk

    def wait_for(self, predicate, what, timeout=5):
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = self.receive()
            if predicate(message):
                return message
        raise AssertionError(f"no {what} within {timeout} s")


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".000Z"


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok  {what}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket")
    parser.add_argument("--tcp", help="HOST:PORT of a hub serving TLS")
    parser.add_argument("--fingerprint", help="the hub certificate's sha256: fingerprint (with --tcp)")
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--device", default="py-watch")
    args = parser.parse_args()
    token = open(args.token_file).read()  # as it is, newline included: the hub ignores surrounding whitespace

    if bool(args.socket) == bool(args.tcp) or (args.tcp and not args.fingerprint):
        parser.error("give --socket PATH, or --tcp HOST:PORT with --fingerprint")
    link = Link(path=args.socket, tcp=args.tcp, fingerprint=args.fingerprint)
    link.send("hello", {"protocolVersion": 1, "deviceID": args.device, "token": token})
    welcome = link.receive()
    check(welcome["type"] == "welcome", "the hub welcomes a hello with the token file's contents")
    standings = link.wait_for(lambda m: m["type"] == "standings", "standings after welcome")["body"]
    round_ = standings["round"]
    check(round_ is not None, "the first standings name the round in play")
    players = [s["playerID"] for s in round_["standings"]]
    sequence = standings["sequence"]

    def score(player, hole, strokes, supersedes=None, **overrides):
        body = {"id": str(uuid.uuid4()), "roundID": round_["id"], "playerID": player, "hole": hole, "strokes": strokes,
                "supersedesEventID": supersedes, "reportedByPlayerID": players[0], "deviceID": args.device,
                "source": "crown", "createdAt": now()}
        body.update(overrides)
        link.send("score", body)
        answer = link.wait_for(lambda m: m["type"] in ("ack", "rejected") and m["body"]["eventID"] == body["id"],
                               f"an answer for {body['id']}")
        return body, answer

    first, answer = score(players[0], 1, 3)
    check(answer["type"] == "ack" and answer["body"]["eventID"] == first["id"] and answer["body"]["alreadyStored"] is False
          and answer["body"].get("classification") == "newScore",
          "a score with a lowercase id is acked under that exact id, as a new score")
    resent, answer = score(players[0], 1, 3, id=first["id"])
    check(answer["body"].get("alreadyStored") is True, "a resend is acked as already stored")
    correction, answer = score(players[0], 1, 4, supersedes=first["id"])
    check(answer["type"] == "ack" and answer["body"].get("classification") == "correction", "a correction of its own score is acked as a correction")

    cases = [
        ("strokesOutOfRange", dict(strokes=11)),
        ("holeOutOfRange", dict(hole=99)),
        ("unknownPlayer", dict(playerID="guest:Nobody")),
        ("unknownReporter", dict(reportedByPlayerID="guest:Nobody")),
        ("wrongRound", dict(roundID=str(uuid.uuid4()))),
        ("invalidCorrection", dict(supersedesEventID=first["id"], strokes=5)),
        ("wrongDevice", dict(deviceID="phone")),
        ("invalidScore", dict(strokes="three")),
    ]
    for reason, overrides in cases:
        fields = {"player": overrides.pop("playerID", players[1]), "hole": overrides.pop("hole", 2),
                  "strokes": overrides.pop("strokes", 3)}
        body, answer = score(fields["player"], fields["hole"], fields["strokes"], **overrides)
        check(answer["type"] == "rejected" and answer["body"]["reason"] == reason and answer["body"]["message"],
              f"rejected with reason {reason}: {answer['body'].get('message')}")

    # A lost push: pretend the watch missed everything since the first standings.
    link.send("heartbeat", {"sentAt": now(), "sequence": sequence})
    newer = link.wait_for(lambda m: m["type"] == "standings" and m["body"]["sequence"] > sequence,
                          "standings newer than the heartbeat's sequence")
    check(newer["body"]["round"]["standings"], "a heartbeat naming an older sequence brings the newest standings")
    print("all checks passed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, ConnectionError, socket.timeout) as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
