#!/usr/bin/env bash
# Fetch the public test corpora the corpus tests run over (see
# scripts/corpora.tsv: name, GitHub repo, pinned commit, paths) into
# testdata/corpus/<name>/ and record where each came from in
# testdata/corpus/<name>/SOURCE. The corpus tests skip when a corpus is absent;
# CI does not fetch them. Licences: each corpus keeps its repository's
# licence (pdfcpu Apache-2.0, pypdf BSD-3, excelize BSD-3, exceljs MIT,
# tealeg/xlsx BSD-3, readability Apache-2.0, python-docx MIT); the files are
# not redistributed by this repository.
#
# A local mirror is used when present (CLAWBRIDGE_MIRRORS/<owner>+<name>/repo,
# a bare git directory); otherwise the repository is cloned from GitHub.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CLAWBRIDGE_CORPUS:-$root/testdata/corpus}
mirrors=${CLAWBRIDGE_MIRRORS:-/work/.mirror}
only=${1:-}
mkdir -p "$out"
grep -v '^#' "$root/scripts/corpora.tsv" | while IFS=$'\t' read -r name repo commit paths; do
	[ -n "$name" ] || continue
	[ -z "$only" ] || [ "$only" = "$name" ] || continue
	git_dir="$mirrors/${repo/\//+}/repo"
	if [ ! -d "$git_dir" ]; then
		git_dir="$out/.git-$name"
		[ -d "$git_dir" ] || git clone --bare --filter=blob:none "https://github.com/$repo" "$git_dir" >&2
	fi
	rm -rf "${out:?}/$name" && mkdir -p "$out/$name"
	# File by file, so a blob a partial mirror lacks is counted, not fatal.
	missing=0
	read -ra globs <<< "$paths"
	while IFS=$'\t' read -r meta file; do
		keep=0
		# shellcheck disable=SC2053 # the pattern is a glob on purpose; * also matches /
		for g in "${globs[@]}"; do [[ $file == $g ]] && keep=1; done
		[ "$keep" = 1 ] || continue
		mkdir -p "$out/$name/$(dirname "$file")"
		git --git-dir "$git_dir" cat-file blob "${meta##* }" > "$out/$name/$file" 2>/dev/null ||
			{ rm -f "$out/$name/$file"; missing=$((missing + 1)); }
	done < <(git --git-dir "$git_dir" ls-tree -r "$commit")
	printf 'repo\t%s\ncommit\t%s\npaths\t%s\nmissing\t%d\n' "$repo" "$commit" "$paths" "$missing" > "$out/$name/SOURCE"
	echo "$name: $(find "$out/$name" -type f ! -name SOURCE | wc -l) files from $repo@${commit:0:12} ($missing not in the mirror)" >&2
done
