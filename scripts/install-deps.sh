#!/bin/sh
# Installs the Debian packages clawbridge's tools and tests use, when missing.
# Idempotent and quiet when everything is present. Needs root (or sudo).
set -eu

# program -> Debian package
need() {
	command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}
missing=""
need chromium chromium
need Xvfb xvfb
need pdftotext poppler-utils
need pdfinfo poppler-utils
need soffice libreoffice-writer-nogui
need psql postgresql
need nginx nginx   # tests: scripts/cluster.sh puts instances behind it
need bwrap bubblewrap
need qpdf qpdf   # tests: the second reader of PDF form fields
# coding_assistant's formatters; python3, node and patch for its tests
need shfmt shfmt
need clang-format clang-format
need black black
need python3 python3
need node nodejs
need patch patch
need pdftoppm poppler-utils
need tesseract tesseract-ocr
[ -n "$(ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata 2>/dev/null)" ] || missing="$missing tesseract-ocr-eng"
[ -n "$(ls /usr/share/tesseract-ocr/*/tessdata/chi_sim.traineddata 2>/dev/null)" ] || missing="$missing tesseract-ocr-chi-sim"
[ -n "$(ls /usr/share/tesseract-ocr/*/tessdata/chi_tra.traineddata 2>/dev/null)" ] || missing="$missing tesseract-ocr-chi-tra"
need espeak-ng espeak-ng
need ffmpeg ffmpeg
need ffprobe ffmpeg
need flac flac   # speech: FLAC variants ffmpeg 5.1 cannot decode (32 bits a sample)
need zbarimg zbar-tools   # image_generator reads every QR code back with it (and gozxing)
[ -x /usr/bin/python3 ] || missing="$missing python3"
[ -x /usr/bin/node ] || missing="$missing nodejs"
# id_photo: OpenCV for Debian's own python3 (a pyenv python3 on PATH has no cv2)
/usr/bin/python3 -c 'import cv2' >/dev/null 2>&1 || missing="$missing python3-opencv"
# calendar tests: the second reader of .ics files and their recurrences
/usr/bin/python3 -c 'import icalendar, dateutil' >/dev/null 2>&1 || missing="$missing python3-icalendar python3-dateutil"
/usr/bin/python3 -c 'import recurring_ical_events' >/dev/null 2>&1 || missing="$missing python3-recurring-ical-events"
# format_converter tests: the second reader of the .docx made from a PDF
/usr/bin/python3 -c 'import docx' >/dev/null 2>&1 || missing="$missing python3-docx"
[ -f /usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml ] || missing="$missing opencv-data"
[ -d /usr/lib/postgresql ] || missing="$missing postgresql"
[ -n "$(ls /usr/share/fonts/truetype/wqy 2>/dev/null)" ] || missing="$missing fonts-wqy-zenhei"
[ -n "$(ls /usr/share/fonts/opentype/noto/NotoSansCJK* 2>/dev/null)" ] || missing="$missing fonts-noto-cjk"
# Impress and Calc are separate packages; their presence shows as filters.
[ -n "$(ls /usr/lib/libreoffice/program/libsdlo.so 2>/dev/null)" ] || missing="$missing libreoffice-impress-nogui"
[ -n "$(ls /usr/lib/libreoffice/program/libsclo.so 2>/dev/null)" ] || missing="$missing libreoffice-calc-nogui"

if [ -z "$missing" ]; then
	exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
pkgs=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
echo "install-deps: installing $pkgs" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 $pkgs >&2
