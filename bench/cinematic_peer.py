#!/usr/bin/python3
"""The cinematic chain written plainly with OpenCV's Python bindings: the peer of
`reel cinematic --fast` in bench/cinematic-vs-python.sh.

Per picture of a video: a face every 0.2 s (OpenCV's frontal-face Haar cascade at 640 wide),
the person's mask from the same selfie-segmentation network through cv2.dnn at 256x256,
enlarged to the picture; the background blurred by a Gaussian of the aperture's radius for the
face's depth (the same thin-lens rule as Reel: 50 mm lens, 36 mm sensor, 70 degree view, a face
0.15 m wide, the background at 4 m); the sharp picture laid over it by the mask; H.264 by an
ffmpeg process fed raw BGR on its standard input (libx264 veryfast CRF 20, as Reel writes).

    /usr/bin/python3 bench/cinematic_peer.py IN.mp4 OUT.mp4 MODEL.onnx [F-NUMBER]

Needs Debian's python3-opencv (cv2 4.6) and numpy; prints "pictures N seconds S fps F".
"""
import math
import subprocess
import sys
import time

import cv2
import numpy as np


def main():
    source, output, model = sys.argv[1:4]
    f_number = float(sys.argv[4]) if len(sys.argv) > 4 else 4.5
    capture = cv2.VideoCapture(source)
    if not capture.isOpened():
        sys.exit(f"cannot open {source}")
    width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
    height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    fps = capture.get(cv2.CAP_PROP_FPS) or 30
    net = cv2.dnn.readNetFromONNX(model)
    faces = cv2.CascadeClassifier("/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml")
    encoder = subprocess.Popen(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{width}x{height}",
         "-r", str(fps), "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", output],
        stdin=subprocess.PIPE)
    per_dioptre = 0.05 * 0.05 / f_number / 0.036 * width / 2
    face_width, every = None, max(1, round(fps / 5))
    started, count = time.monotonic(), 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        if count % every == 0:
            small = cv2.resize(frame, (640, int(height * 640 / width)), interpolation=cv2.INTER_AREA)
            found = faces.detectMultiScale(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), 1.1, 5)
            face_width = max((w for (_, _, w, _) in found), default=None)
            face_width = face_width / 640 if face_width else None
        rgb = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB), (256, 256), interpolation=cv2.INTER_AREA)
        net.setInput(cv2.dnn.blobFromImage(rgb, 1 / 255))
        mask = cv2.resize(net.forward()[0, 0], (width, height))[:, :, None]
        if face_width:
            metres = 0.15 / (2 * math.tan(math.radians(35)) * face_width)
            radius = min(per_dioptre * abs(1 / metres - 0.25), 0.03 * width)
            background = cv2.GaussianBlur(frame, (0, 0), max(radius / 2, 0.1))
            frame = (frame * mask + background * (1 - mask)).astype(np.uint8)
        encoder.stdin.write(frame.tobytes())
        count += 1
    encoder.stdin.close()
    encoder.wait()
    seconds = time.monotonic() - started
    print(f"pictures {count} seconds {seconds:.2f} fps {count / seconds:.2f}")


if __name__ == "__main__":
    main()
