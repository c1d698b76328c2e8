"""The games the table hosts, one package each: pure domain logic, no hardware or web code."""
