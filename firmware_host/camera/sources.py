"""Where a table's camera frames come from: one small interface, one class per source kind.

:class:`FrameSource` gives BGR ``uint8`` frames of the configured resolution, ``count`` at a
time; every frame is checked (:func:`checked_frame`) before anyone sees it. The table
file's ``camera.source`` picks the class (:func:`open_source`):

* ``picamera2``: the Pi's camera port (:class:`Picamera2Source`); picamera2 is imported only
  when this source opens, so other machines never need it;
* ``opencv``: anything ``cv2.VideoCapture`` opens, a device index or a URL
  (:class:`OpenCVSource`);
* ``files``: PNG or JPEG files in name order (:class:`FileSource`);
* ``virtual``: the simulator's camera, handed in by the caller (``firmware_host`` does not
  import the simulator).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from firmware_host.camera import setup as camera_setup
from firmware_host.camera.setup import CameraSetup
from firmware_host.errors import TabletopError
from firmware_host.i18n import lazy, lazy_n

Array = np.ndarray
Size = tuple[int, int]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
"""The file names a folder source takes (any case)."""


class CameraUnavailable(TabletopError):
    """A source that cannot be opened or read; the message names it and the fix."""


class BadFrame(TabletopError):
    """A frame that is not a BGR ``uint8`` image of the configured size; names the frame."""


def checked_frame(frame: Any, size: Size, name: str) -> Array:
    """``frame`` when it is a 3-channel ``uint8`` image of ``size`` (width, height), else
    :class:`BadFrame` naming it."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise BadFrame(lazy("{frame}: not an image", frame=name))
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        channels = 1 if frame.ndim == 2 else frame.shape[2]
        raise BadFrame(
            lazy_n(
                "{frame}: expected 3-channel 8-bit colour, got {count} channel of {type}",
                "{frame}: expected 3-channel 8-bit colour, got {count} channels of {type}",
                channels,
                frame=name,
                type=str(frame.dtype),
            )
        )
    height, width = frame.shape[:2]
    if (width, height) != size:
        raise BadFrame(
            lazy(
                "{frame}: {width}x{height} px, but the camera's resolution is {size}",
                frame=name,
                width=str(width),
                height=str(height),
                size=f"{size[0]}x{size[1]}",
            )
        )
    return frame


class FrameSource(ABC):
    """Frames from one camera (or its stand-in); close it when done, or use ``with``."""

    def __init__(self, size: Size) -> None:
        self.size = size

    @abstractmethod
    def grab(self, count: int) -> list[Array]:
        """The next ``count`` frames, each checked."""

    @abstractmethod
    def describe(self) -> str:
        """The source as a person names it (in reports and errors)."""

    def close(self) -> None:  # noqa: B027 - most sources hold nothing to release
        """Release the camera (a no-op where nothing is held)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class Picamera2Source(FrameSource):
    """The Pi's camera port through picamera2: still configuration at ``size``, exposure
    automatic or fixed (``ExposureTime`` in µs and ``AnalogueGain``)."""

    def __init__(self, size: Size, exposure: camera_setup.Exposure, camera: int = 0) -> None:
        super().__init__(size)
        self.camera = camera
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraUnavailable(
                lazy(
                    "picamera2 is not importable: install Debian's python3-picamera2 (sudo apt "
                    "install python3-picamera2) and create the service's venv with "
                    "--system-site-packages so it sees it (docs/camera-setup.md)"
                )
            ) from None
        try:
            self._cam = Picamera2(camera)
        except (RuntimeError, IndexError, OSError) as exc:
            raise CameraUnavailable(
                lazy(
                    "{camera}: cannot open ({error}); check the ribbon cable and that no other "
                    "program holds the camera (sudo systemctl stop tabletop)",
                    camera=self.describe(),
                    error=str(exc),
                )
            ) from None
        # RGB888 is stored B, G, R per pixel: OpenCV's order
        config = self._cam.create_still_configuration(main={"size": size, "format": "RGB888"})
        self._cam.configure(config)
        if exposure.mode == "manual":
            self._cam.set_controls(
                {
                    "AeEnable": False,
                    "ExposureTime": exposure.exposure_us,
                    "AnalogueGain": exposure.gain,
                }
            )
        else:
            self._cam.set_controls({"AeEnable": True})
        self._cam.start()

    def grab(self, count: int) -> list[Array]:
        return [
            checked_frame(self._cam.capture_array("main"), self.size, f"{self.describe()} frame")
            for _ in range(count)
        ]

    def describe(self) -> str:
        return f"picamera2 camera {self.camera}"

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


class OpenCVSource(FrameSource):
    """A camera, video file or stream that ``cv2.VideoCapture`` opens (``target``: a device
    index or a URL or path); asks it for frames of ``size``."""

    def __init__(self, size: Size, target: int | str) -> None:
        super().__init__(size)
        self.target = target
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraUnavailable(
                lazy(
                    "{camera}: cannot open it; check the camera is plugged in (ls /dev/video*) "
                    "or the URL is right",
                    camera=self.describe(),
                )
            )
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def grab(self, count: int) -> list[Array]:
        frames = []
        for _ in range(count):
            ok, frame = self._capture.read()
            if not ok:
                raise CameraUnavailable(
                    lazy("{camera}: no frame could be read", camera=self.describe())
                )
            frames.append(checked_frame(frame, self.size, f"{self.describe()} frame"))
        return frames

    def describe(self) -> str:
        if isinstance(self.target, int):
            return f"OpenCV device {self.target}"
        return f"OpenCV source {self.target}"

    def close(self) -> None:
        self._capture.release()


class FileSource(FrameSource):
    """Image files (PNG or JPEG) as frames, in the given order; a folder's in name order.

    With ``cycle`` the files start over when all were taken, else running out is a
    :class:`CameraUnavailable` error.
    """

    def __init__(self, size: Size, files: Sequence[Path | str], cycle: bool = False) -> None:
        super().__init__(size)
        self.files = [Path(f) for f in files]
        self.cycle = cycle
        self._next = 0
        if not self.files:
            raise CameraUnavailable(lazy("no image files given"))

    @classmethod
    def folder(cls, size: Size, folder: Path, cycle: bool = False) -> FileSource:
        """The PNG and JPEG files of ``folder``, in name order."""
        if not folder.is_dir():
            raise CameraUnavailable(lazy("image folder {folder}: not found", folder=str(folder)))
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise CameraUnavailable(
                lazy("image folder {folder}: no PNG or JPEG files in it", folder=str(folder))
            )
        return cls(size, files, cycle)

    def grab(self, count: int) -> list[Array]:
        frames = []
        for _ in range(count):
            if self._next == len(self.files):
                if not self.cycle:
                    raise CameraUnavailable(
                        lazy_n(
                            "{camera}: its {count} file was taken",
                            "{camera}: all {count} files were taken",
                            len(self.files),
                            camera=self.describe(),
                        )
                    )
                self._next = 0
            path = self.files[self._next]
            self._next += 1
            frames.append(checked_frame(_read_image(path), self.size, str(path)))
        return frames

    def describe(self) -> str:
        if len(self.files) == 1:
            return f"image file {self.files[0]}"
        return f"{len(self.files)} image files from {self.files[0].parent}"


def _read_image(path: Path) -> Array:
    """An image file as BGR ``uint8``; :class:`BadFrame` when it cannot be read."""
    if not path.is_file():
        raise BadFrame(lazy("{path}: file not found", path=str(path)))
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise BadFrame(lazy("{path}: not a readable PNG or JPEG image", path=str(path)))
    return image


def open_source(
    setup: CameraSetup, table_dir: Path, virtual: FrameSource | None = None
) -> FrameSource:
    """The source ``setup`` names, opened; ``files`` paths are relative to ``table_dir``.

    The ``virtual`` camera is the simulator's: the caller hands it in.
    """
    source = setup.source
    size = setup.size
    match source:
        case camera_setup.Picamera2SourceConfig():
            return Picamera2Source(size, setup.exposure, source.camera)
        case camera_setup.OpenCVSourceConfig():
            target: int | str = source.device if source.device is not None else str(source.url)
            return OpenCVSource(size, target)
        case camera_setup.FilesSourceConfig():
            return FileSource.folder(size, table_dir / source.path, cycle=True)
        case _:
            if virtual is None:
                raise CameraUnavailable(
                    lazy(
                        "the virtual camera is the simulator's: run with --sim, or give the "
                        "table a real camera source"
                    )
                )
            return virtual
