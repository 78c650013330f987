"""What the host writes is a door too: files and folders written without following a link.

Whoever runs a command that writes (often a game master, sometimes as root) may write
into a folder someone else could plant names in: `index.html -> ../outside/victim.txt`,
`replays -> ../elsewhere`. Three rules hold for every file written here:

- a file is made whole in a fresh folder, or beside its name under a fresh random name
  (O_CREAT | O_EXCL | O_NOFOLLOW: never an existing name, never a link), then renamed
  onto its name: a rename replaces whatever is at the name, a link included, and never
  writes where a link points;
- a folder is entered only when it is a real folder (O_DIRECTORY | O_NOFOLLOW, by its
  descriptor from its parent's): a link where a folder should be is refused;
- nothing is deleted but what the command itself wrote (its fresh folder, after its
  files were renamed into place, or a partial file of its own after a failure).
"""
from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
from pathlib import Path

from engine import InputError
from orchestrator.text import shown

_UMASK = os.umask(0o22)
os.umask(_UMASK)
FILE_MODE = 0o666 & ~_UMASK
FOLDER_MODE = 0o777 & ~_UMASK
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def new_file(path: Path, data: bytes) -> int:
    """Make the file `path`, which must not exist (not even as a link), holding `data`;
    returns its size. For files inside a fresh folder the command made itself."""
    fd = os.open(path, _NEW, FILE_MODE)
    try:
        with os.fdopen(fd, "wb", closefd=False) as out:
            out.write(data)
    finally:
        os.close(fd)
    return len(data)


def write_file(path: str | Path, data: bytes) -> None:
    """Write `data` as the file `path`, whole or not at all: a fresh file beside it (a
    random name, made with O_EXCL), renamed onto the name. A link at `path` is replaced
    by the file, never followed; a folder at `path` is an OSError. Raises OSError."""
    path = Path(path)
    fd, partial = tempfile.mkstemp(prefix=f".{path.name[:80]}.", suffix=".partial",
                                   dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(partial, FILE_MODE)
        os.replace(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except FileNotFoundError:
            pass
        raise


def write_kept(path: Path, data: bytes) -> None:
    """Write `data` as the file `path` in a folder the command keeps beside another file
    (a results file's `replays/`), as write_file does; the folder is made where missing
    and entered by its descriptor (O_NOFOLLOW): a link there (`replays -> ../elsewhere`,
    planted beside a results file someone else made) is refused, InputError, never
    written through. Raises OSError for the rest."""
    folder = path.parent
    try:
        os.mkdir(folder, FOLDER_MODE)
    except FileExistsError:
        pass
    try:
        into = os.open(folder, _FOLDER)
    except OSError:
        if not os.path.islink(folder) and os.path.isdir(folder):
            raise
        raise InputError(f"{shown(folder)}: not a folder (a link, or a file); nothing is "
                         f"written through a link: remove it") from None
    partial = f".{path.name[:80]}.{secrets.token_hex(6)}.partial"
    try:
        fd = os.open(partial, _NEW, FILE_MODE, dir_fd=into)
        try:
            with os.fdopen(fd, "wb", closefd=False) as out:
                out.write(data)
        finally:
            os.close(fd)
        os.rename(partial, path.name, src_dir_fd=into, dst_dir_fd=into)
    except BaseException:
        try:
            os.unlink(partial, dir_fd=into)
        except FileNotFoundError:
            pass
        raise
    finally:
        os.close(into)


def real_folders(folder: Path) -> None:
    """Make the relative `folder` (`runs/replays`, a folder arena names in the working
    folder, not the user) where missing, each part entered by its descriptor from its
    parent's (O_NOFOLLOW): a part that is a link (`runs -> /elsewhere`, in a cloned
    repository) is refused, InputError, rather than written through."""
    at = os.open(".", _FOLDER)
    reached = Path()
    try:
        for part in folder.parts:
            reached /= part
            try:
                os.mkdir(part, FOLDER_MODE, dir_fd=at)
            except FileExistsError:
                pass
            try:
                inner = os.open(part, _FOLDER, dir_fd=at)
            except OSError:
                raise InputError(f"{shown(reached)}: not a folder (a link, or a file); nothing "
                                 f"is written through a link: remove it, or name the file "
                                 f"to write") from None
            os.close(at)
            at = inner
    finally:
        os.close(at)


def fresh_folder(target: Path) -> Path:
    """A new empty folder beside `target` (on its file system, so it renames onto it),
    named after it with a random part; only this process knows it is there."""
    target.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=f".{target.name[:80]}.", suffix=".new",
                                 dir=target.parent))
    os.chmod(made, FOLDER_MODE)
    return made


def links_in(folder: Path, names: tuple[str, ...], folders: tuple[str, ...]) -> Path | None:
    """The first link in `folder` among `names`, or directly inside its sub-`folders`;
    None where there is none (nothing followed to find it)."""
    for name in names:
        path = folder / name
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode):
            return path
        if name in folders and stat.S_ISDIR(mode):
            with os.scandir(path) as entries:
                for entry in entries:
                    if entry.is_symlink():
                        return path / entry.name
    return None


def install(built: Path, target: Path) -> None:
    """Put the folder `built` (made by fresh_folder) in place as `target`: renamed to it
    where `target` is missing, else each of its files renamed onto the same name in
    `target` (the files of `target` with other names stay). A link in `target` where a
    folder of `built` goes is refused (InputError), as is `target` itself being a link;
    a link where a file goes is replaced by the file. `built` is removed either way."""
    try:
        try:
            mode = os.lstat(target).st_mode
        except FileNotFoundError:
            os.rename(built, target)
            return
        if not stat.S_ISDIR(mode):
            raise InputError(f"{shown(target)}: --out is " + (
                "a link; give the folder it points to" if stat.S_ISLNK(mode)
                else "a file, not a folder"))
        top = os.open(target, _FOLDER)
        try:
            _merge(built, top, target)
        finally:
            os.close(top)
    except OSError as exc:
        raise InputError(f"{shown(target)}: cannot write the site ({exc.strerror})") from None
    finally:
        if built.exists():
            shutil.rmtree(built, ignore_errors=True)


def _merge(source: Path, into: int, shown_as: Path) -> None:
    with os.scandir(source) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.is_dir(follow_symlinks=False):
                try:
                    os.mkdir(entry.name, FOLDER_MODE, dir_fd=into)
                except FileExistsError:
                    pass
                try:
                    sub = os.open(entry.name, _FOLDER, dir_fd=into)
                except OSError:
                    raise InputError(
                        f"{shown(shown_as / entry.name)}: not a folder (a link, or a file); "
                        f"nothing is written through a link: remove it, or give another "
                        f"--out") from None
                try:
                    _merge(Path(entry.path), sub, shown_as / entry.name)
                finally:
                    os.close(sub)
            else:
                os.rename(entry.path, entry.name, dst_dir_fd=into)


def size_of(folder: Path) -> int:
    """The bytes of the files under `folder`, no link followed."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            status = os.lstat(os.path.join(root, name))
            if stat.S_ISREG(status.st_mode):
                total += status.st_size
    return total
