"""What goes into the wheel beyond ``pyproject.toml``'s metadata.

The default configuration (``config/``) and the hub firmware (``hardware/hub/``) live at the
project's root, where people edit and flash them; the wheel carries them inside the package
as ``firmware_host.shipped.config`` and ``firmware_host.shipped.hub``, so an installed
``tabletop`` runs with the checkout gone (``firmware_host/shipped/__init__.py`` finds them).
"""

from setuptools import find_packages, setup

SHIPPED = {
    "firmware_host.shipped.config": "config",
    "firmware_host.shipped.hub": "hardware/hub",
}

setup(
    packages=find_packages(include=["firmware_host*", "simulator*"]) + list(SHIPPED),
    package_dir=SHIPPED,
    package_data={
        "firmware_host": ["locale/*/LC_MESSAGES/*.mo"],
        "firmware_host.web": ["static/*.*"],
        "firmware_host.games": ["*/page/*.*"],
        "firmware_host.shipped.config": ["*/*.yaml"],
        "firmware_host.shipped.hub": ["*.json", "*.md"],
    },
)
