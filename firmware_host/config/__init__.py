"""Configuration files: YAML under ``config/``, validated into frozen typed objects.

Every file carries ``version:``; unknown keys, wrong types and impossible values are
rejected with one :class:`~firmware_host.errors.InputError` naming the file, the key
path and what was expected.
"""

from firmware_host.config.loader import CONFIG_DIR, StrictModel, load_model, load_yaml

__all__ = ["CONFIG_DIR", "StrictModel", "load_model", "load_yaml"]
