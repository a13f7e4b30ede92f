"""Examples: each seed topic written twice, a TF1 form and a TF2 form returning comparable results.

Run one with `python -m examples.<name>` from the checkout.
"""
