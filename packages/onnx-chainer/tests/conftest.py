import os

import pytest


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    # export_testcase and gen_test_data_set write relative to the working folder
    monkeypatch.chdir(tmp_path)
    yield
    os.chdir(tmp_path)
