#!/usr/bin/env python3
"""The document's words are named once (docs/design.md, "The vocabulary"): a family,
method, direction, memory, flag or source word of src/model/vocab.h (or one a
descriptor of model/families.c spells out) is written as a literal only in vocab.h, in a #define that names it, and in the descriptor tables
(model/families.c, measure/family.c). This lists every other place a C source of the
parts below matches or writes one by literal: strcmp/strncmp against it, a flag test,
a family lookup, or the family of a new entry. Exit 1 with one line per place."""
import os
import re
import sys

PARTS = ["model", "measure", "render", "pipeline", "nccl", "sample", "import", "cli"]
ALLOWED = {"src/model/vocab.h", "src/model/families.c", "src/measure/family.c"}
# calls whose every string argument is matched as a word of the document
MATCHING = r"\b(strn?cmp|ls_entry_has_flag|ls_entry_flag|ls_doc_next_measurement|ls_fam_find|ls_family_find|ls_methods_include)\s*\("
# calls whose first argument is the family of a new entry
FAMILY_ARG = r"\b(ls_entry_new|ls_import_entry)\s*\(\s*\"(\w+)\""


def words(root):
    """vocab.h's words, and those a descriptor of model/families.c writes out itself."""
    text = open(os.path.join(root, "src/model/vocab.h")).read()
    found = set(re.findall(r'^#define LS_\w+ "([^"]+)"', text, re.M))
    fams = open(os.path.join(root, "src/model/families.c")).read()
    return found | set(re.findall(r'\.(?:name|word) = "([^"]+)"', fams))


def code_lines(path):
    """(number, line) of the file with comments blanked out."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    for n, line in enumerate(text.split("\n"), 1):
        yield n, re.sub(r"//.*", "", line)


def offences(root, vocab):
    for part in PARTS:
        top = os.path.join(root, "src", part)
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith((".c", ".h", ".cu")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                if rel in ALLOWED:
                    continue
                for n, line in code_lines(path):
                    if line.lstrip().startswith("#define"):
                        continue
                    found = []
                    if re.search(MATCHING, line):
                        found += [w for w in re.findall(r'"([^"\\]*)"', line) if w in vocab]
                    found += [m.group(2) for m in re.finditer(FAMILY_ARG, line) if m.group(2) in vocab]
                    for w in dict.fromkeys(found):
                        yield f'{rel}:{n}: "{w}" by literal (model/vocab.h names it)'


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    found = list(offences(root, words(root)))
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
