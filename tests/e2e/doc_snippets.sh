#!/usr/bin/env bash
# Every example in the docs still works: each YAML block of a config page
# loads as a .streamlint.yaml (--dump-config exits 0), every other YAML
# block parses, each option a `streamlint ...` example line uses exists in
# --help, and every published version reference (action @v, pre-commit rev,
# release URLs, GitLab include) names the version in CMakeLists.txt.
. "$(dirname "$0")/lib.sh"
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 with PyYAML not found"; exit 77; }

"$STREAMLINT" --help-hidden >"$WORK/help.txt" 2>&1 || "$STREAMLINT" --help >"$WORK/help.txt" 2>&1
version=$(sed -n 's/^project(streamlint VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
[ -n "$version" ] || fail "no version in CMakeLists.txt"

python3 - "$SRC" "$WORK" <<'PY' >"$WORK/snippets.txt" || fail "cannot extract the snippets"
import os, re, sys
src, work = sys.argv[1], sys.argv[2]
pages = ["README.md"] + ["docs/" + p for p in sorted(os.listdir(f"{src}/docs")) if p.endswith(".md")]
pages += ["docs/checks/" + p for p in sorted(os.listdir(f"{src}/docs/checks")) if p.endswith(".md")]
config_keys = {"Checks", "CheckOptions", "HeaderFilterRegex", "ExcludePaths",
               "InheritParentConfig", "WarningsAsErrors", "MinSeverity"}
n = 0
for page in pages:
    text = open(f"{src}/{page}").read()
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
        lang, body = match.group(1), match.group(2)
        line = text[:match.start()].count("\n") + 1
        n += 1
        if lang == "yaml":
            first_key = next((l.split(":")[0] for l in body.splitlines()
                              if l and not l.startswith("#") and not l.startswith(" ")), "")
            kind = "config" if first_key in config_keys else "yaml"
            path = f"{work}/snippet{n}.yaml"
            open(path, "w").write(body)
            print(f"{kind}\t{page}:{line}\t{path}")
        for command in re.findall(r"(?:^|\$ |\| )(streamlint(?: [^\n|;&]*)?)", body, re.M):
            print(f"cli\t{page}:{line}\t{command}")
PY

checked=0
while IFS=$'\t' read -r kind where what; do
  case $kind in
    config)
      checked=$((checked + 1))
      mkdir -p "$WORK/cfg$checked"
      cp "$what" "$WORK/cfg$checked/.streamlint.yaml"
      (cd "$WORK/cfg$checked" && "$STREAMLINT" --dump-config >"$WORK/dump.txt" 2>"$WORK/dump.err") ||
        fail "$where: the config example is rejected: $(cat "$WORK/dump.err")" ;;
    yaml)
      python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$what" 2>"$WORK/yaml.err" ||
        fail "$where: the YAML example does not parse: $(tail -1 "$WORK/yaml.err")" ;;
    cli)
      for option in $(grep -oE -- '(^| )--[a-z][a-z-]*' <<<"$what" | tr -d ' '); do
        grep -qE -- "^ *$option([= ]|$)" "$WORK/help.txt" ||
          fail "$where: '$what' uses $option, which --help does not list"
      done ;;
  esac
done <"$WORK/snippets.txt"
[ "$checked" -ge 1 ] || fail "only $checked config examples found: the extraction is broken"
grep -q "^cli" "$WORK/snippets.txt" || fail "no CLI example found: the extraction is broken"

# Published version references.
grep -rnoE '(integrations/github@v|rev: v|releases/download/v|streamlint/v|streamlint_)[0-9]+\.[0-9]+\.[0-9]+' \
  "$SRC/README.md" "$SRC/docs" "$SRC/integrations" >"$WORK/versions.txt"
[ -s "$WORK/versions.txt" ] || fail "no version reference found: the pattern is broken"
while IFS= read -r reference; do
  case $reference in
    *"$version") ;;
    *) fail "version reference is not $version (CMakeLists.txt): $reference" ;;
  esac
done <"$WORK/versions.txt"
finish
