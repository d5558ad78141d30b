"""`sudokulab serve`: the web page and its JSON API."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sudokulab.backends.extras import need
from sudokulab.commands.inputs import examples
from sudokulab.errors import Exit, Terminated, UsageError, exit_help, port_number

if TYPE_CHECKING:
    import logging

DESCRIPTION = ("Serve the web page and its JSON API (/api, documented at /docs). Solves "
               "run in worker processes with a timeout.")
EXAMPLES = examples(
    "sudokulab serve --open",
    "sudokulab serve --host 0.0.0.0 --port 8080   # reachable from other machines")
# It answers no puzzle itself (its requests say theirs): it ends refused, or stopped.
EXITS = (Exit.INPUT, Exit.ENGINE, Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `serve`."""
    p.description = DESCRIPTION
    p.epilog = f"{EXAMPLES}\n\n{exit_help(EXITS, SAYS, puzzles=False)}"
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")


def run(args: argparse.Namespace) -> int:
    """Serve the page and the API until Ctrl-C."""
    need("web", "serve")
    import logging

    import uvicorn

    from sudokulab.web.app import create_app
    host = args.host  # [::1], as a URL writes an IPv6 address, is read as ::1
    if host.startswith("[") and host.endswith("]") and ":" in host:
        host = host[1:-1]
    listening = bind(host, args.port)  # before announcing: a busy port says so now
    port = listening.getsockname()[1]
    url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()
    print(f"sudokulab: serving {url} (API docs at {url}docs); Ctrl-C stops", file=sys.stderr)
    # a request still running that long after Ctrl-C is cancelled (its worker ended):
    # a 60 s solve must not hold the server open
    server = _server(uvicorn, create_app())
    log = logging.getLogger("uvicorn.error")
    log.addFilter(_say_cancelled)
    try:
        server.run(sockets=[listening])
    finally:  # the logger outlives this command (the tests serve many times in one process)
        log.removeFilter(_say_cancelled)
    # uvicorn returns when a signal stopped it: Ctrl-C (or SIGTERM) is the only way out,
    # said now, outside its event loop
    if {signal.SIGTERM, signal.SIGHUP} & set(server.stopped_by):
        raise Terminated
    raise KeyboardInterrupt


def _server(uvicorn: Any, app: object) -> Any:
    """uvicorn's Server, keeping the signals that stopped it (`stopped_by`) instead of
    raising them again inside its event loop, and letting a second Ctrl-C go (as
    errors.interrupt_once does): uvicorn's force exit then skipped the app's shutdown,
    whose task was cancelled with a traceback. The grace (GRACE) ends the requests."""
    class Server(uvicorn.Server):
        stopped_by: list[int] = []

        def handle_exit(self, sig: int, frame: object) -> None:
            self._captured_signals.append(sig)
            self.should_exit = True  # never force_exit: the shutdown runs whole

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                try:
                    yield
                finally:  # uvicorn raises again what is left here: nothing
                    self.stopped_by = list(self._captured_signals)
                    self._captured_signals.clear()

    return Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=GRACE))


GRACE = 2  # seconds the requests under way may take to finish once Ctrl-C came
SAYS: dict[int, str] = {
    Exit.INPUT: "bad --host or --port, or the port is in use",
    Exit.ENGINE: "the web extra is not installed (the message says how to install it)",
    Exit.INTERRUPTED: f"stopped by Ctrl-C: requests still running {GRACE} s later are cancelled"}


def _say_cancelled(record: logging.LogRecord) -> bool:
    """uvicorn's 'Cancel N running task(s)' in our words, on one line, and not the
    traceback of each request it cancelled; other records kept."""
    import asyncio

    if record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError):
        return False
    if not str(record.msg).startswith("Cancel %s running task"):
        return True
    count = record.args[0] if isinstance(record.args, tuple) and record.args else "some"
    print(f"sudokulab: {count} request(s) still running "
          f"{GRACE} s after the signal cancelled", file=sys.stderr)
    return False


def bind(host: str, port: int):
    """A socket listening on host:port; UsageError (exit 2) naming why it cannot be."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise UsageError(f"--host {host}: not an address of this machine ({error})") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen(128)
    except OSError as error:
        listening.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") \
            from None
    return listening
