"""A minimal HTTP/1.1 client connection on a plain socket, for timing streamed responses.

``http.client`` decodes a chunked body through several Python layers per read (a buffered reader,
``readline`` for every chunk-size line, a second read for each trailing CRLF), each its own socket
wait under gevent. Here one ``recv`` per wake-up returns whatever the kernel holds, the caller
stamps it at once, and :class:`BodyFramer` cuts the chunk framing out of those bytes with a few
slices. It speaks just what a streaming chat client needs: one request at a time on a keep-alive
connection, ``Content-Length``, ``chunked`` or read-to-EOF bodies, HTTPS through :mod:`ssl`. Under
Locust's gevent monkey-patching :mod:`socket` is cooperative, so every wait yields.
"""

from __future__ import annotations

import socket
import ssl
import time

RECV_BYTES = 65536
_MAX_HEAD = 65536


class ProtocolError(ConnectionError):
    """The server broke HTTP/1.1: a bad status line, header block or chunk size."""


class RemoteDisconnected(ConnectionError):
    """The server closed the connection before it sent a status line."""


class BodyFramer:
    """Cuts a response body out of the bytes that follow its headers.

    :meth:`feed` takes the bytes of one ``recv`` and returns the body bytes among them (the chunk
    framing of a ``chunked`` body removed). :attr:`ended` turns true at the end of the body (the
    zero-size chunk and its trailers, or ``Content-Length`` bytes); bytes past the end are kept in
    :attr:`rest`. A body with neither framing ends at EOF, which the caller sees.
    """

    __slots__ = ("chunked", "ended", "left", "need", "rest", "_line", "_crlf", "_trailers")

    def __init__(self, headers: dict[str, str]) -> None:
        self.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        self.left: int | None = None
        if not self.chunked and "content-length" in headers:
            try:
                self.left = int(headers["content-length"])
            except ValueError:
                raise ProtocolError(
                    f"Content-Length {headers['content-length']!r} is not a number"
                ) from None
        self.ended = self.left == 0
        self.need = 0
        self.rest = b""
        self._line = b""
        self._crlf = 0
        self._trailers = False

    def feed(self, data: bytes) -> bytes:
        """The body bytes in ``data``; raises :class:`ProtocolError` on a bad chunk size."""
        if not self.chunked:
            if self.left is None:
                return data
            part = data[: self.left]
            self.left -= len(part)
            self.ended = self.left == 0
            self.rest = data[len(part) :]
            return part
        n = len(data)
        need = self.need
        if self._crlf == 0 and not self._line and not self._trailers and need:
            # the common case: the rest of the current chunk, whole or in part
            if n < need:
                self.need = need - n
                return data
        out = []
        pos = 0
        while pos < n and not self.ended:
            if need:
                take = min(need, n - pos)
                out.append(data[pos : pos + take])
                pos += take
                need -= take
                if not need:
                    self._crlf = 2
                continue
            if self._crlf:
                take = min(self._crlf, n - pos)
                pos += take
                self._crlf -= take
                continue
            eol = data.find(b"\n", pos)
            if eol < 0:
                self._line += data[pos:]
                if len(self._line) > 4096:
                    raise ProtocolError("a chunk-size line longer than 4 KiB")
                break
            line = (self._line + data[pos:eol]).rstrip(b"\r")
            self._line = b""
            pos = eol + 1
            if self._trailers:
                self.ended = not line
                continue
            try:
                size = int(line.split(b";", 1)[0], 16)
            except ValueError:
                raise ProtocolError(f"bad chunk size {line[:40]!r}") from None
            if size < 0:
                raise ProtocolError(f"bad chunk size {line[:40]!r}")
            if size:
                need = size
            else:
                self._trailers = True
        self.need = need
        if self.ended:
            self.rest = data[pos:]
        return out[0] if len(out) == 1 else b"".join(out)


class Connection:
    """One HTTP/1.1 connection: send a request, read the head, then read the body yourself."""

    __slots__ = ("arrived", "buffered", "sock")

    def __init__(self, scheme: str, host: str, port: int, timeout: float) -> None:
        sock = socket.create_connection((host, port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if scheme == "https":
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        self.buffered = b""
        """Bytes read past the response head, not yet handed to a body framer."""
        self.arrived = 0.0
        """The ``perf_counter()`` at which the last read of :meth:`read_head` returned."""

    def close(self) -> None:
        """Close the socket."""
        self.sock.close()

    def send(self, head: bytes, body: bytes) -> None:
        """Send a request: its head (ending in a blank line) and body."""
        self.sock.sendall(head + body)

    def read_head(self) -> tuple[int, bool, dict[str, str]]:
        """Read a response head: ``(status, keep_alive, headers with lower-case names)``.

        Raises:
            RemoteDisconnected: The connection closed before any byte of a response.
            ProtocolError: The head is not HTTP/1.x.
            OSError: The socket failed or timed out (``TimeoutError``).
        """
        buf = self.buffered
        while (end := buf.find(b"\r\n\r\n")) < 0:
            if len(buf) > _MAX_HEAD:
                raise ProtocolError("response headers longer than 64 KiB")
            data = self.sock.recv(RECV_BYTES)
            self.arrived = time.perf_counter()
            if not data:
                if buf:
                    raise ProtocolError("the connection closed inside the response headers")
                raise RemoteDisconnected("Remote end closed connection without response")
            buf += data
        lines = buf[:end].decode("latin-1").split("\r\n")
        self.buffered = buf[end + 4 :]
        version, _, rest = lines[0].partition(" ")
        code = rest[:3]
        if not version.startswith("HTTP/1.") or not code.isdigit():
            raise ProtocolError(f"bad status line {lines[0][:80]!r}")
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        conn = headers.get("connection", "").lower()
        keep_alive = "close" not in conn if version == "HTTP/1.1" else "keep-alive" in conn
        return int(code), keep_alive, headers
