#!/bin/sh
# Installs the Debian packages clawbridge needs, when missing.
#   install-deps.sh run    what the tools run (make run)
#   install-deps.sh test   that and what only the tests use (make test; the default)
#   install-deps.sh --list run|test   print the packages of that set, install nothing
# Idempotent and quiet when everything is present. Needs root (or sudo).
set -eu

list=""
if [ "${1:-}" = "--list" ]; then
	list=1
	shift
fi
mode="${1:-test}"
case "$mode" in
run | test) ;;
*)
	echo "usage: install-deps.sh [--list] [run|test]" >&2
	exit 2
	;;
esac

missing=""
all=""
# pkg PACKAGE CHECK...: PACKAGE is in the set; it is missing when CHECK fails.
pkg() {
	p="$1"
	shift
	all="$all $p"
	"$@" >/dev/null 2>&1 || missing="$missing $p"
}
has() { command -v "$1"; }
any() { [ -n "$(ls $1 2>/dev/null)" ]; }

# What the tools run.
pkg chromium has chromium                       # browser
pkg xvfb has Xvfb                               # screen: a virtual display where there is none
pkg poppler-utils has pdftotext                 # pdf_tool, ocr (pdftoppm, pdfinfo)
pkg poppler-utils has pdfinfo
pkg poppler-utils has pdftoppm
pkg libreoffice-writer-nogui has soffice        # office conversions
pkg libreoffice-impress-nogui any /usr/lib/libreoffice/program/libsdlo.so
pkg libreoffice-calc-nogui any /usr/lib/libreoffice/program/libsclo.so
pkg bubblewrap has bwrap                        # the jail
pkg shfmt has shfmt                             # coding_assistant's formatters
pkg clang-format has clang-format
pkg black has black
pkg python3 test -x /usr/bin/python3            # python_runner runs Debian's python3
pkg nodejs test -x /usr/bin/node                # python_runner's javascript
pkg tesseract-ocr has tesseract                 # ocr
pkg tesseract-ocr-eng any '/usr/share/tesseract-ocr/*/tessdata/eng.traineddata'
pkg tesseract-ocr-chi-sim any '/usr/share/tesseract-ocr/*/tessdata/chi_sim.traineddata'
pkg tesseract-ocr-chi-tra any '/usr/share/tesseract-ocr/*/tessdata/chi_tra.traineddata'
pkg espeak-ng has espeak-ng                     # speech
pkg ffmpeg has ffmpeg                           # speech, gif_maker
pkg ffmpeg has ffprobe
pkg flac has flac                               # speech: FLAC variants ffmpeg 5.1 cannot decode (32 bits a sample)
pkg zbar-tools has zbarimg                      # image_generator: the second, stricter QR reader (doctor checks it)
pkg dash has sh                                 # shell
pkg python3-opencv /usr/bin/python3 -c 'import cv2' # id_photo (a pyenv python3 on PATH has no cv2)
pkg opencv-data test -f /usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml
pkg fonts-wqy-zenhei any /usr/share/fonts/truetype/wqy
pkg fonts-noto-cjk any '/usr/share/fonts/opentype/noto/NotoSansCJK*'

# What only the tests (and benchmarks) use.
if [ "$mode" = test ]; then
	pkg postgresql has psql                     # the shared store's tests; scripts/start-postgres.sh
	pkg postgresql test -d /usr/lib/postgresql
	pkg nginx has nginx                         # scripts/cluster.sh puts instances behind it
	pkg qpdf has qpdf                           # the second reader of PDF form fields
	pkg patch has patch                         # coding_assistant's tests apply its diffs
	pkg python3-icalendar /usr/bin/python3 -c 'import icalendar' # calendar: the second reader of .ics files
	pkg python3-dateutil /usr/bin/python3 -c 'import dateutil'
	pkg python3-recurring-ical-events /usr/bin/python3 -c 'import recurring_ical_events'
	pkg python3-docx /usr/bin/python3 -c 'import docx' # format_converter: the second reader of the .docx made from a PDF
	pkg npm has npm                             # the npm MCP servers and clients of the tests; the mcpb CLI make release-check runs
fi

if [ -n "$list" ]; then
	echo $all | tr ' ' '\n' | sort -u
	exit 0
fi
if [ -z "$missing" ]; then
	exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
pkgs=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "install-deps ($mode): installing $pkgs" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 $pkgs >&2
