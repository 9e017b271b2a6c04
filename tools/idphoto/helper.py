# Face detection and person segmentation for clawbridge's id_photo tool.
# Run by the Go package in internal/jail with Debian's python3 and
# python3-opencv. It prints one JSON object on stdout.
#   detect IMAGE CASCADES
#       -> {"width", "height", "faces": [[x, y, w, h], ...], "unconfirmed": n}
#       CASCADES is opencv-data's haarcascades directory. Only confirmed
#       faces are listed; unconfirmed counts the face-like boxes dropped.
#   segment IMAGE FX FY FW MASK_OUT
#       GrabCut of the person whose (square) face box is given, in a region
#       around it. Writes an 8-bit mask of that region (255 = person),
#       possibly scaled down -> {"region": [x0, y0, x1, y1], "crown": y,
#       "touches_top": bool, "foreground": fraction}
# Lengths in the segmentation priors are in face-box sizes (s), measured
# from the box's centre column and its top row.
import json
import sys


def fail(code, msg, status):
    print(json.dumps({"error": code, "detail": msg}))
    sys.exit(status)


try:
    import cv2
    import numpy as np
except ImportError as e:  # the Go side maps this to "install python3-opencv"
    fail("no_opencv", str(e), 3)

cv2.setNumThreads(1)

# Detection runs on a copy of at most this many pixels (Haar is slow on
# big photos and a portrait's face is large).
DETECT_PIXELS = 1_500_000
# The segmentation region is scaled so the face box is at most this many
# pixels wide: GrabCut's time grows with the pixel count.
SEGMENT_FACE = 130


def read(path):
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        fail("unreadable", "cannot read " + path, 4)
    return img


def cascade(directory, name):
    c = cv2.CascadeClassifier(directory + "/" + name)
    if c.empty():
        fail("no_cascade", "cannot load " + directory + "/" + name, 5)
    return c


def overlap(a, b):
    """The intersection of two boxes as a fraction of the smaller one."""
    ix = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    iy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return 0.0
    return ix * iy / float(min(a[2] * a[3], b[2] * b[3]))


def suppress(boxes):
    """One box per face: a box mostly inside a larger one is the same face."""
    kept = []
    for b in sorted(boxes, key=lambda b: -b[2] * b[3]):
        if all(overlap(b, k) < 0.5 for k in kept):
            kept.append(b)
    return kept


def confirmed(gray, box, alt, eyes):
    """A Haar box is a face only if a second, differently trained face
    cascade finds it too, or two eyes sit in its upper half, one each side
    of the middle. Chairs, flags and folds pass the first cascade, rarely
    both checks."""
    x, y, w, h = box
    H, W = gray.shape
    pad = w // 4
    x0, y0 = max(0, x - pad), max(0, y - pad)
    roi = gray[y0:min(H, y + h + pad), x0:min(W, x + w + pad)]
    side = max(24, w * 2 // 3)
    for f in alt.detectMultiScale(roi, 1.1, 3, minSize=(side, side)):
        if overlap(box, (f[0] + x0, f[1] + y0, f[2], f[3])) >= 0.6:
            return True
    upper = gray[y:y + h * 6 // 10, x:x + w]
    lo, hi = max(8, w // 10), max(9, w // 2)
    for c in eyes:
        found = c.detectMultiScale(upper, 1.1, 3, minSize=(lo, lo), maxSize=(hi, hi))
        left = any(e[0] + e[2] / 2 < w / 2 for e in found)
        right = any(e[0] + e[2] / 2 >= w / 2 for e in found)
        if left and right:
            return True
    return False


def detect(path, cascades):
    img = read(path)
    h, w = img.shape[:2]
    k = min(1.0, (DETECT_PIXELS / float(w * h)) ** 0.5)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    if k < 1:
        gray = cv2.resize(gray, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    gray = cv2.equalizeHist(gray)
    face = cascade(cascades, "haarcascade_frontalface_default.xml")
    alt = cascade(cascades, "haarcascade_frontalface_alt2.xml")
    eyes = [cascade(cascades, "haarcascade_eye.xml"), cascade(cascades, "haarcascade_eye_tree_eyeglasses.xml")]
    found = face.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=5, minSize=(24, 24))
    boxes = suppress([tuple(int(v) for v in f) for f in found])
    faces = [b for b in boxes if confirmed(gray, b, alt, eyes)]
    out = [[int(round(v / k)) for v in b] for b in faces]
    print(json.dumps({"width": w, "height": h, "faces": out, "unconfirmed": len(boxes) - len(faces)}))


def segment(path, fx, fy, fw, mask_out):
    img = read(path)
    H, W = img.shape[:2]
    s = float(fw)
    cx = fx + fw / 2.0
    # The region: wide enough to show the background on both sides, from
    # above any hair to below every standard's frame.
    x0, x1 = int(max(0, cx - 2.2 * s)), int(min(W, cx + 2.2 * s))
    y0, y1 = int(max(0, fy - 1.2 * s)), int(min(H, fy + 3.0 * s))
    k = min(1.0, SEGMENT_FACE / s)
    roi = img[y0:y1, x0:x1]
    if k < 1:
        roi = cv2.resize(roi, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    h, w = roi.shape[:2]
    u = s * k
    ox, oy = (cx - x0) * k, (fy - y0) * k

    def pt(dx, dy):
        return (int(round(ox + dx * u)), int(round(oy + dy * u)))

    def ellipse(m, centre, axes, value):
        cv2.ellipse(m, pt(*centre), (int(axes[0] * u), int(axes[1] * u)), 0, 0, 360, value, -1)

    def polygon(m, pts, value):
        cv2.fillPoly(m, [np.array([pt(*p) for p in pts], np.int32)], value)

    low = 10  # below the region: the body goes on
    # Outside the head with its hair and the body below the shoulders is
    # surely background: a person beside, a flag, a chair.
    mask = np.full((h, w), cv2.GC_BGD, np.uint8)
    ellipse(mask, (0, 0.35), (1.0, 1.1), cv2.GC_PR_BGD)
    polygon(mask, [(-1.0, 0.9), (1.0, 0.9), (2.3, 1.5), (2.3, low), (-2.3, low), (-2.3, 1.5)], cv2.GC_PR_BGD)
    # Probably the person: the head, the neck and the shoulders widening
    # below it.
    ellipse(mask, (0, 0.45), (0.55, 0.8), cv2.GC_PR_FGD)
    polygon(mask, [(-0.35, 0.8), (0.35, 0.8), (0.45, 1.1), (1.3, 1.5), (1.5, low), (-1.5, low), (-1.3, 1.5), (-0.45, 1.1)], cv2.GC_PR_FGD)
    # Surely the person: the middle of the face, the neck and the chest
    # below it, whatever their colour (a tie, a shirt like the wall).
    ellipse(mask, (0, 0.5), (0.3, 0.38), cv2.GC_FGD)
    polygon(mask, [(-0.15, 0.9), (0.15, 0.9), (0.25, 1.4), (0.6, 1.8), (0.6, low), (-0.6, low), (-0.6, 1.8), (-0.25, 1.4)], cv2.GC_FGD)
    # The top rows are background: they teach GrabCut its colours, and a
    # head that goes on up to them is cut off by the photo's edge.
    band = max(2, int(round(0.015 * u)))
    mask[:band, :] = cv2.GC_BGD
    bgd = np.zeros((1, 65), np.float64)
    fgd = np.zeros((1, 65), np.float64)
    cv2.grabCut(roi, mask, None, bgd, fgd, 5, cv2.GC_INIT_WITH_MASK)
    fg = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    # Keep the part joined to the face and fill its holes.
    n, labels = cv2.connectedComponents(fg)
    centre = pt(0, 0.5)
    fg = (labels == labels[centre[1], centre[0]]).astype(np.uint8)
    r = max(3, int(u / 40) | 1)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r)))
    # The crown: the highest person row over the middle of the face.
    middle = fg[:, max(0, int(ox - 0.25 * u)):int(ox + 0.25 * u) + 1]
    rows = np.nonzero(middle.any(axis=1))[0]
    top = int(rows[0]) if len(rows) else int(oy)
    crown = y0 + top / k
    touches = y0 == 0 and top <= band
    if not cv2.imwrite(mask_out, fg * 255):
        fail("write", "cannot write " + mask_out, 4)
    print(json.dumps({"region": [x0, y0, x1, y1], "crown": crown, "touches_top": bool(touches), "foreground": float(fg.mean())}))


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "detect":
        detect(args[1], args[2])
    elif len(args) == 6 and args[0] == "segment":
        segment(args[1], *[int(v) for v in args[2:5]], args[5])
    else:
        fail("usage", "detect IMAGE CASCADES | segment IMAGE FX FY FW MASK", 2)


main()
