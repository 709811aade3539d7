"""Nothing twin writes is readable by another user of the machine (issue 31 §2).

What a person said reaches the disk in the embedded Postgres's folder and log, the embedded
Redis's folder and the Qdrant Edge folder (its WAL and payload pages hold user ids and the
hashed terms of each message). :func:`keep_private` is called once by the entry point before
any store starts: the process's umask becomes ``077`` (every file and folder it, or a server
it starts, creates is its owner's alone), and the folders a previous version left open lose
their group and other bits.

When twin runs as root the embedded Postgres runs as a user of its own, which must reach its
folder through the parents: :func:`grant_search` gives that one user the search bit through a
POSIX ACL, so no parent is opened to everyone (``o+x``) unless the file system has no ACLs.
"""

from __future__ import annotations

import os
import stat
import struct
from collections.abc import Iterable
from pathlib import Path

import structlog

PRIVATE_UMASK = 0o077
_ACL_XATTR = "system.posix_acl_access"
_ACL_VERSION = 2
_USER_OBJ, _USER, _GROUP_OBJ, _MASK, _OTHER = 0x01, 0x02, 0x04, 0x10, 0x20
_UNDEFINED_ID = 0xFFFFFFFF
_SEARCH = 0o1
# What no one but the owner may have: any right of others, reading or writing by the group.
# The group's search bit stays: on a folder with an ACL it is the mask that lets the Postgres
# user (and only it) pass through (:func:`grant_search`).
_OPEN = 0o067


def keep_private(folders: Iterable[Path]) -> list[str]:
    """Set the process umask to 077, and take every permission of others and the group's
    read and write off what already exists under ``folders``; returns what had to change
    (for a log line)."""
    os.umask(PRIVATE_UMASK)
    changed: list[str] = []
    for folder in folders:
        if folder.exists():
            changed += _tighten_tree(folder)
    if changed:
        structlog.get_logger("twin").warning(
            "private_files_tightened", count=len(changed), first=changed[:5]
        )
    return changed


def _tighten_tree(top: Path) -> list[str]:
    changed = []
    for path in [top, *top.rglob("*")]:
        try:
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode) or not mode & _OPEN:
                continue
            path.chmod(stat.S_IMODE(mode) & ~_OPEN)
            changed.append(str(path))
        except (FileNotFoundError, PermissionError):
            continue  # gone meanwhile (a WAL segment), or another user's: not ours to change
    return changed


def grant_search(folder: Path, uid: int) -> bool:
    """Let user ``uid`` (only) pass through ``folder``: a POSIX ACL entry ``u:uid:--x``.
    False when the file system takes no ACL or the folder has one already (not merged here)."""
    try:
        present = os.getxattr(folder, _ACL_XATTR)
    except OSError:
        present = None
    if present is not None and not _names(present, uid):
        return False  # an ACL of someone else's making: not merged here
    mode = stat.S_IMODE(folder.stat().st_mode)
    group = (mode >> 3) & 0o7
    acl = struct.pack("<I", _ACL_VERSION) + b"".join(
        struct.pack("<HHI", tag, perm, who)
        for tag, perm, who in (
            (_USER_OBJ, (mode >> 6) & 0o7, _UNDEFINED_ID),
            (_USER, _SEARCH, uid),
            (_GROUP_OBJ, group, _UNDEFINED_ID),
            (_MASK, group | _SEARCH, _UNDEFINED_ID),
            (_OTHER, mode & 0o7, _UNDEFINED_ID),
        )
    )
    try:
        os.setxattr(folder, _ACL_XATTR, acl)
    except OSError:
        return False
    return True


def _names(acl: bytes, uid: int) -> bool:
    """The ACL has an entry for ``uid`` (ours, from an earlier start: it is set afresh, since a
    chmod since may have masked it)."""
    entries = (struct.unpack_from("<HHI", acl, at) for at in range(4, len(acl) - 7, 8))
    return any(tag == _USER and who == uid for tag, _, who in entries)
