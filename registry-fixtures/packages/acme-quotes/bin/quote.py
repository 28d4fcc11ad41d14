#!/usr/bin/env python3
"""quote (acme/quotes): a deterministic price for a symbol, computed from its letters.
Needs the API key setting (ACME_QUOTES_API_KEY) like a real API client; answers with a
fingerprint of the key it received, never the key. JSON on stdin."""

import json
import os
import sys


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True, "tool": "quote", "package": "acme/quotes"}))
        return
    import hashlib  # after the self-test, which must answer at once

    key = os.environ.get("ACME_QUOTES_API_KEY", "")
    if not key:
        print(json.dumps({"error": "no API key: ACME_QUOTES_API_KEY is not set"}))
        return
    symbol = str(args.get("symbol", "")).upper()
    if args.get("verbose"):
        print(f"GET /v1/quote?symbol={symbol} with key={key}", file=sys.stderr)
    currency = os.environ.get("ACME_QUOTES_CURRENCY", "USD")
    precision = int(float(os.environ.get("ACME_QUOTES_PRECISION", "2")))
    cents = sum((i + 1) * ord(c) for i, c in enumerate(symbol)) % 100000
    rate = 0.9 if currency == "EUR" else 1.0
    print(json.dumps({
        "symbol": symbol,
        "price": round(cents / 100 * rate, precision),
        "currency": currency,
        "key_sha256": hashlib.sha256(key.encode()).hexdigest()[:12],
    }))


main()
