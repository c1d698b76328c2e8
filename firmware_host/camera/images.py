"""Reading camera frames from image files (PNG or JPEG), with errors that name the file."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from firmware_host.errors import InputError

Array = np.ndarray


def read_frame(path: Path | str, size: tuple[int, int] | None = None) -> Array:
    """The image at ``path`` as a BGR uint8 array; ``size`` (width, height) when given must
    match. A missing, unreadable or wrongly sized file is an :class:`InputError`."""
    path = Path(path)
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except FileNotFoundError:
        raise InputError(str(path), "", "frame not found") from None
    except OSError as exc:
        raise InputError(str(path), "", f"cannot read the frame ({exc.strerror})") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputError(str(path), "", "cannot read the frame: not a PNG or JPEG image")
    if size is not None and (image.shape[1], image.shape[0]) != size:
        raise InputError(
            str(path),
            "",
            f"the frame is {image.shape[1]}x{image.shape[0]} px; the table's camera gives "
            f"{size[0]}x{size[1]}",
        )
    return image
