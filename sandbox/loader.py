"""What a native program really loads, found as the dynamic loader finds it: its ELF
interpreter (PT_INTERP), the shared libraries it needs (DT_NEEDED, each in turn), searched
through DT_RPATH / DT_RUNPATH with `$ORIGIN`, then the system's directories; and, when its
RUNPATH climbs out of its own directory (`$ORIGIN/../lib`, as the JVM's does), the
runtime's home that this names, with the files outside it that the home links to.

An executable bot's private root shows these (`sandbox/programs.py`), so a runtime works
there without anyone listing its files. Paths come back with every symbolic link on the
way to them, so that each resolves in a private root as it does on the host.
"""
from __future__ import annotations

import glob
import os
import struct
from functools import lru_cache
from pathlib import PurePosixPath

ELF_MAGIC = b"\x7fELF"
LD_SO_CONF = "/etc/ld.so.conf"
DEFAULT_DIRS = {32: ("/lib", "/usr/lib"), 64: ("/lib64", "/usr/lib64", "/lib", "/usr/lib")}
# A home may never be one of these: a binary in /usr/bin whose RUNPATH is $ORIGIN/../lib
# names /usr, which is not a runtime's own.
NOT_A_HOME = ("/", "/usr", "/usr/local", "/opt", "/usr/lib", "/lib")
MAX_LINKS = 40
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
DT_NULL, DT_NEEDED, DT_STRTAB, DT_RPATH, DT_RUNPATH = 0, 1, 5, 15, 29


class Elf:
    """The few fields of an ELF file that loading it depends on, read with `struct` from
    its program headers and dynamic section (a library for this would cost every command
    that meets a runtime 0.1-0.2 s of import)."""

    def __init__(self, path: str) -> None:
        self.interp: str | None = None
        self.needed: list[str] = []
        self.rpath: list[str] = []
        self.runpath: list[str] = []
        with open(path, "rb") as f:
            ident = f.read(64)
            wide, order = ident[4:5] == b"\2", "<" if ident[5:6] == b"\1" else ">"
            if ident[:4] != ELF_MAGIC or ident[4:5] not in (b"\1", b"\2") \
                    or ident[5:6] not in (b"\1", b"\2") or len(ident) < (64 if wide else 52):
                raise ValueError(f"{path}: not an ELF file")
            machine, = struct.unpack_from(order + "H", ident, 18)
            self.kind = (64 if wide else 32, order, machine)
            loads, dynamic = self._segments(f, ident, wide, order)
            if dynamic is not None:
                self._dynamic(f, dynamic, loads, order + ("qQ" if wide else "iI"))

    def _segments(self, f, ident: bytes, wide: bool, order: str) -> tuple[list, tuple | None]:
        """The PT_LOAD segments (vaddr, offset, size), the PT_DYNAMIC one (offset, size);
        the interpreter read on the way."""
        if wide:      # Elf64_Phdr: type flags offset vaddr paddr filesz ...
            (phoff,), (size, count) = (struct.unpack_from(order + "Q", ident, 32),
                                       struct.unpack_from(order + "HH", ident, 54))
            header, fields = order + "IIQQQQ", (0, 2, 3, 5)
        else:         # Elf32_Phdr: type offset vaddr paddr filesz ...
            (phoff,), (size, count) = (struct.unpack_from(order + "I", ident, 28),
                                       struct.unpack_from(order + "HH", ident, 42))
            header, fields = order + "IIIII", (0, 1, 2, 4)
        f.seek(phoff)
        table = f.read(size * count)
        loads, dynamic = [], None
        for at in range(0, len(table) - size + 1, size) if size else ():
            values = struct.unpack_from(header, table, at)
            kind, offset, vaddr, filesz = (values[i] for i in fields)
            if kind == PT_INTERP:
                f.seek(offset)
                self.interp = f.read(min(filesz, 4096)).split(b"\0")[0].decode()
            elif kind == PT_LOAD:
                loads.append((vaddr, offset, filesz))
            elif kind == PT_DYNAMIC:
                dynamic = (offset, filesz)
        return loads, dynamic

    def _dynamic(self, f, dynamic: tuple, loads: list, entry: str) -> None:
        """DT_NEEDED, DT_RPATH and DT_RUNPATH, whose strings are in DT_STRTAB (an address,
        found in the file through the PT_LOAD segment that maps it)."""
        f.seek(dynamic[0])
        data = f.read(min(dynamic[1], 1 << 20))
        whole = len(data) - len(data) % struct.calcsize(entry)
        tags = list(struct.iter_unpack(entry, data[:whole]))
        strtab = next((value for tag, value in tags if tag == DT_STRTAB), None)
        base = next((offset + strtab - vaddr for vaddr, offset, filesz in loads
                     if strtab is not None and vaddr <= strtab < vaddr + filesz), None)
        if base is None:
            return
        for tag, value in tags:
            if tag == DT_NULL:
                break
            if tag in (DT_NEEDED, DT_RPATH, DT_RUNPATH):
                f.seek(base + value)
                text = f.read(4096).split(b"\0")[0].decode("utf-8", "replace")
                if tag == DT_NEEDED:
                    self.needed.append(text)
                else:
                    (self.rpath if tag == DT_RPATH else self.runpath).extend(text.split(":"))


@lru_cache(maxsize=256)
def read_elf(path: str) -> Elf:
    return Elf(path)


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == ELF_MAGIC
    except OSError:
        return False


@lru_cache(maxsize=64)
def loaded_files(binary: str) -> tuple[str, ...]:
    """Every path the private root must show for `binary` to start: itself, its
    interpreter, its libraries, each with the links that lead to it; then its home, and
    what the home links to outside itself. Libraries it cannot find are left out: the
    loader's own error then names them, as it would on the host."""
    binary = os.path.realpath(binary)
    main = read_elf(binary)
    found: dict[str, None] = dict.fromkeys(link_chain(binary))
    if main.interp:
        found.update(dict.fromkeys(link_chain(main.interp)))
    system = system_dirs(main.kind[0])
    # (path as found, its ELF, its loaders' RPATHs)
    todo: list[tuple[str, Elf, tuple[str, ...]]] = [(binary, main, ())]
    done = {binary}
    while todo:
        path, elf, inherited = todo.pop()
        origin = os.path.dirname(path)
        # glibc: a library's RPATH (and its loaders') is searched only when it has no RUNPATH.
        rpaths = () if elf.runpath else (*_expand(elf.rpath, origin), *inherited)
        dirs = [*rpaths, *_expand(elf.runpath, origin), *system]
        for name in elf.needed:
            library = _find(name, dirs, main.kind)
            if library is None or library in done:
                continue
            done.add(library)
            found.update(dict.fromkeys(link_chain(library)))
            todo.append((library, read_elf(library), rpaths))
    home = runtime_home(binary, main)
    if home:
        found[home] = None
        for target in home_links(home):
            found.update(dict.fromkeys(link_chain(target)))
    return tuple(found)


def runtime_home(binary: str, elf: Elf) -> str | None:
    """The directory that holds a runtime's binary and the libraries its RPATH/RUNPATH
    reaches through `$ORIGIN/..` (the JVM's home: bin/java, lib/libjli.so, lib/modules);
    None when it names no such directory."""
    origin = os.path.dirname(binary)
    reached = [d for d in _expand([*elf.rpath, *elf.runpath], origin, origin_only=True)
               if os.path.isdir(d)]
    if not reached:
        return None
    home = os.path.realpath(os.path.commonpath([origin, *reached]))
    return None if home == origin or home in NOT_A_HOME else home


def home_links(home: str) -> list[str]:
    """What the symbolic links in `home` lead to outside it (Debian's JVM links its conf/
    files to /etc/java-17-openjdk): targets under one top directory such as
    /etc/java-17-openjdk are shown as the one directory that holds them all."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for top, dirs, files in os.walk(home):
        for name in dirs + files:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                continue
            target = os.path.realpath(path)
            if os.path.exists(target) and os.path.commonpath([home, target]) != home:
                groups.setdefault(PurePosixPath(target).parts[:3], []).append(target)
    return sorted(os.path.commonpath(targets) for targets in groups.values())


def link_chain(path: str) -> list[str]:
    """The paths that make `path` resolve in a copy of the tree: each symbolic link met
    on the way (in a directory or at the end), then the real file or directory."""
    chain: list[str] = []
    path = os.path.normpath(os.path.join("/", path))
    for _ in range(MAX_LINKS):
        parts = PurePosixPath(path).parts[1:]
        real = "/"
        for at, part in enumerate(parts):
            step = os.path.join(real, part)
            if os.path.islink(step):
                chain.append(step)
                path = os.path.normpath(os.path.join(real, os.readlink(step), *parts[at + 1:]))
                break
            real = step
        else:
            chain.append(real)
            return chain
    return chain


@lru_cache(maxsize=2)
def system_dirs(elf_class: int) -> tuple[str, ...]:
    """Where the loader looks after RPATH and RUNPATH: the directories of ld.so.conf (what
    its cache indexes), then its built-in defaults."""
    dirs = [*_conf_dirs(LD_SO_CONF, set()), *DEFAULT_DIRS.get(elf_class, ())]
    return tuple(d for d in dict.fromkeys(dirs) if os.path.isdir(d))


def _conf_dirs(conf: str, seen: set[str]) -> list[str]:
    if conf in seen:
        return []
    seen.add(conf)
    try:
        with open(conf, encoding="utf-8", errors="replace") as f:
            lines = [line.split("#", 1)[0].strip() for line in f]
    except OSError:
        return []
    dirs = []
    for line in filter(None, lines):
        if line.startswith("include"):
            pattern = line.split(None, 1)[1] if " " in line else ""
            pattern = os.path.join(os.path.dirname(conf), pattern)
            for included in sorted(glob.glob(pattern)):
                dirs += _conf_dirs(included, seen)
        elif line.startswith("/"):
            dirs.append(line)
    return dirs


def _expand(entries: list[str] | tuple[str, ...], origin: str,
            origin_only: bool = False) -> list[str]:
    """RPATH/RUNPATH entries with `$ORIGIN` replaced; entries with other tokens ($LIB,
    $PLATFORM) are left out (they are rare, and guessing them could show a wrong dir)."""
    out = []
    for entry in entries:
        has_origin = "$ORIGIN" in entry or "${ORIGIN}" in entry
        if not entry or (origin_only and not has_origin):
            continue
        entry = entry.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)
        if "$" not in entry:
            out.append(os.path.normpath(entry))
    return out


def _find(name: str, dirs: list[str], kind: tuple) -> str | None:
    """The first file called `name` in `dirs` that the program can load (same class,
    byte order and machine: a 32-bit library of the same name does not count)."""
    candidates = [name] if "/" in name else [os.path.join(d, name) for d in dirs]
    for path in candidates:
        if os.path.isfile(path) and is_elf(path):
            try:
                if read_elf(path).kind == kind:
                    return path
            except Exception:            # a damaged file: the loader would skip it too
                continue
    return None
