"""scripts/provision-swipl on a fresh machine, with apt-get and dpkg-query stubbed.

A fresh machine's package lists are often older than its installed packages: an install
from them fails until `apt-get update` has run. The stubs behave that way, and record
every apt-get call, so the tests see what the script asked for and in which order.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "provision-swipl"
STALE = ("libarchive-dev : Depends: libarchive13 (= 3.6.2-1+deb12u4) but "
         "3.6.2-1+deb12u5 is to be installed")

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="provision-swipl builds as root only"),
    pytest.mark.skipif("ID=debian" not in Path("/etc/os-release").read_text(),
                       reason="provision-swipl builds from Debian's sources only"),
]

APT_GET = f"""#!/usr/bin/env bash
# apt-get as on a machine with stale package lists: installs fail until an update ran
# (or always, with REFUSE=always); `source` only shows that the download was reached.
echo "apt-get $*" >> "$STUB_LOG"
case "$1" in
  update) touch "$STUB_DIR/updated"; exit 0 ;;
  install)
    if [[ "$REFUSE" == always || ! -e "$STUB_DIR/updated" ]]; then
      echo "Reading package lists..."
      echo "Some packages could not be installed."
      echo "The following packages have unmet dependencies:"
      echo " {STALE}"
      echo "E: Unable to correct problems, you have held broken packages."
      exit 100
    fi
    exit 0 ;;
  source) echo "download step reached"; exit 1 ;;
esac
exit 0
"""
DPKG_QUERY = """#!/usr/bin/env bash
# Nothing is installed.
exit 1
"""


def stubs(tmp_path: Path) -> dict[str, str]:
    """A PATH with the stubs first, and the environment the script runs in."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, text in (("apt-get", APT_GET), ("dpkg-query", DPKG_QUERY)):
        path = folder / name
        path.write_text(text)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{folder}:/usr/sbin:/usr/bin:/sbin:/bin", "STUB_DIR": str(tmp_path),
            "STUB_LOG": str(tmp_path / "apt.log"),
            "PROVISION_APT_SRC_FILE": str(tmp_path / "trixie-src.sources")}


def provision(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """Run the script for a fresh prefix under tmp_path."""
    return subprocess.run([str(SCRIPT), str(tmp_path / "swipl")], capture_output=True,
                          text=True, env={**stubs(tmp_path), **env}, stdin=subprocess.DEVNULL)


def test_stale_lists_are_refreshed_before_the_first_install(tmp_path):
    done = provision(tmp_path)
    calls = (tmp_path / "apt.log").read_text().splitlines()
    verbs = [call.split()[1] for call in calls]
    assert verbs[0] == "update", calls
    assert "install" in verbs and verbs.index("update") < verbs.index("install")
    assert verbs[-1] == "source", calls  # the build dependencies went in: download reached
    assert "download step reached" in done.stderr
    assert done.returncode == 3  # the stub downloads nothing, so the checksum fails


def test_an_install_that_still_fails_names_the_package_in_one_line(tmp_path):
    done = provision(tmp_path, REFUSE="always")
    assert done.returncode == 3
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1, done.stderr
    assert "could not install the build dependencies" in errors[0]
    assert STALE in errors[0]
    verbs = [call.split()[1] for call in (tmp_path / "apt.log").read_text().splitlines()]
    assert verbs == ["update", "install"]  # refreshed once, then gave up: no download
