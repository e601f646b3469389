"""Test configuration: the markers shared by the packages' test suites, and fixtures for
the download tests (a dataset root in a temporary folder, a local HTTP server)."""

import http.server
import threading

import pytest

from chainer import dataset


def pytest_configure(config):
    config.addinivalue_line('markers', 'gpu: needs a CUDA device (run with nox -s gpu)')
    config.addinivalue_line('markers', 'slow: slow test')


@pytest.fixture
def root(tmp_path):
    """An empty dataset root, set for the duration of the test."""
    saved = dataset.get_dataset_root()
    dataset.set_dataset_root(tmp_path / 'root')
    yield tmp_path / 'root'
    dataset.set_dataset_root(saved)


class _Handler(http.server.BaseHTTPRequestHandler):
    files: dict = {}
    hits: list = []

    def do_GET(self):
        self.hits.append(self.path)
        body = self.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class LocalServer:
    """An HTTP server on 127.0.0.1 serving ``files`` (path -> bytes); ``hits`` lists the
    requested paths. ``stop()`` shuts it down (later requests are refused)."""

    def __init__(self):
        handler = type('Handler', (_Handler,), {'files': {}, 'hits': []})
        self.files = handler.files
        self.hits = handler.hits
        self._httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
        self.url = f'http://127.0.0.1:{self._httpd.server_address[1]}'
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        self._running = True

    def stop(self):
        if self._running:
            self._running = False
            self._httpd.shutdown()
            self._httpd.server_close()


@pytest.fixture
def server():
    """A :class:`LocalServer`, stopped at the end of the test."""
    local = LocalServer()
    yield local
    local.stop()
