"""The web server's settings, read from ``config/web/reference.yaml`` (or another file).

>>> config = load_web_config()
>>> config.host, config.phones
('127.0.0.1', False)
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from firmware_host.config.loader import CONFIG_DIR, StrictModel, load_model

REFERENCE_WEB = CONFIG_DIR / "web" / "reference.yaml"
"""The shipped web settings: the page on this machine only, phones off."""


class WebConfig(StrictModel):
    """Where the page is served and who may act on it (see ``docs/web.md``)."""

    version: Literal[1]
    host: Annotated[str, Field(min_length=1)] = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8080
    phones: bool = False
    public_url: str | None = None
    staff_pin: Annotated[str, Field(pattern=r"^[0-9]{4,12}$")]
    screen_hosts: list[str] = Field(default_factory=lambda: ["127.0.0.1", "::1"])
    max_failures: Annotated[int, Field(ge=1)] = 5
    lockout: Annotated[float, Field(gt=0)] = 300.0

    @model_validator(mode="after")
    def _phones_need_url(self) -> WebConfig:
        if self.phones and not self.public_url:
            raise ValueError(
                "phones: true needs public_url (the address phones open, shown as a QR code)"
            )
        if self.public_url is not None and not self.public_url.startswith(("http://", "https://")):
            raise ValueError(
                f"public_url must start with http:// or https://, got {self.public_url!r}"
            )
        return self


def load_web_config(path: Path | str | None = None) -> WebConfig:
    """Load and check a web settings file (the reference one when ``path`` is None)."""
    return load_model(WebConfig, path if path is not None else REFERENCE_WEB)
