# Face detection and background segmentation for clawbridge's id_photo tool.
# Run by the Go package in internal/jail with Debian's python3 and
# python3-opencv. It prints one JSON object on stdout.
#   detect IMAGE CASCADE            -> {"width", "height", "faces": [[x, y, w, h], ...]}
#   segment IMAGE FX FY FW FH VX0 VY0 VX1 VY1 MASK_OUT
#       GrabCut seeded from the face box; pixels outside the valid rect
#       (padding added by the caller) are background. Writes an 8-bit mask
#       (255 = person) -> {"foreground": fraction}
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


def read(path):
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        fail("unreadable", "cannot read " + path, 4)
    return img


def detect(path, cascade_path):
    img = read(path)
    cascade = cv2.CascadeClassifier(cascade_path)
    if cascade.empty():
        fail("no_cascade", "cannot load " + cascade_path, 5)
    gray = cv2.equalizeHist(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    faces = cascade.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=5, minSize=(24, 24))
    out = [[int(v) for v in f] for f in faces] if len(faces) else []
    print(json.dumps({"width": img.shape[1], "height": img.shape[0], "faces": out}))


def segment(path, fx, fy, fw, fh, vx0, vy0, vx1, vy1, mask_out):
    img = read(path)
    h, w = img.shape[:2]
    mask = np.full((h, w), cv2.GC_PR_BGD, np.uint8)
    chin = min(h, int(fy + fh * 1.1))
    # Probably the person: the head around the face box and the shoulders
    # widening below the chin.
    cx, cy = int(fx + fw / 2), int(fy + fh * 0.42)
    cv2.ellipse(mask, (cx, cy), (int(fw * 0.72), int(fh * 0.95)), 0, 0, 360, cv2.GC_PR_FGD, -1)
    body = np.array([[fx + fw * 0.15, chin - fh * 0.1], [fx + fw * 0.85, chin - fh * 0.1],
                     [fx + fw * 2.2, h], [fx - fw * 1.2, h]], np.int32)
    cv2.fillPoly(mask, [body], cv2.GC_PR_FGD)
    # Surely the person: the middle of the face.
    cv2.ellipse(mask, (int(fx + fw / 2), int(fy + fh / 2)), (int(fw * 0.3), int(fh * 0.38)), 0, 0, 360, cv2.GC_FGD, -1)
    # Surely background: a band along the top and along the sides above the
    # chin, and any padding.
    sure_bg = np.zeros((h, w), bool)
    band = max(2, int(min(w, h) * 0.02))
    sure_bg[:band, :] = True
    sure_bg[:chin, :band] = True
    sure_bg[:chin, w - band:] = True
    valid = np.zeros((h, w), bool)
    valid[vy0:vy1, vx0:vx1] = True
    sure_bg |= ~valid
    mask[sure_bg] = cv2.GC_BGD
    bgd = np.zeros((1, 65), np.float64)
    fgd = np.zeros((1, 65), np.float64)
    cv2.grabCut(img, mask, None, bgd, fgd, 5, cv2.GC_INIT_WITH_MASK)
    fg = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    # Keep the part joined to the face and fill its holes, so stray
    # background specks and holes in the hair do not show.
    n, labels = cv2.connectedComponents(fg)
    if n > 1:
        keep = labels[int(fy + fh / 2), int(fx + fw / 2)]
        if keep:
            fg = (labels == keep).astype(np.uint8)
    k = max(3, (min(w, h) // 100) | 1)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # Soft edge: a small blur of the hard mask, then the sure background is
    # set back to zero so the border is exactly the new colour.
    alpha = cv2.GaussianBlur(fg.astype(np.float32) * 255.0, (k, k), 0)
    alpha[sure_bg] = 0
    alpha = np.clip(alpha, 0, 255).astype(np.uint8)
    if not cv2.imwrite(mask_out, alpha):
        fail("write", "cannot write " + mask_out, 4)
    print(json.dumps({"foreground": float(fg.mean())}))


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "detect":
        detect(args[1], args[2])
    elif len(args) == 11 and args[0] == "segment":
        segment(args[1], *[int(v) for v in args[2:10]], args[10])
    else:
        fail("usage", "detect IMAGE CASCADE | segment IMAGE FX FY FW FH VX0 VY0 VX1 VY1 MASK", 2)


main()
