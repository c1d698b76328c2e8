"""The games the table hosts, one package each; no hardware or web code."""
