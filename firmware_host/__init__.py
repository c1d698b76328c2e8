"""The electronic Drop It tabletop: the service that runs on the table's Raspberry Pi.

One sub-package per concern: ``config`` (YAML files checked into typed objects),
``rules`` (the landing rules and their geometry, free of hardware and web code),
``commands`` (the ``tabletop`` command line), and more as the product grows.
"""

__version__ = "0.1.0"
