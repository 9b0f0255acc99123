"""Render deploy/nginx/qipan.conf.template into an nginx site config (docs/deploy.md).

    python3 deploy/render_nginx.py --server-name play.example.org \
        --certificate /etc/letsencrypt/live/play.example.org/fullchain.pem \
        --key /etc/letsencrypt/live/play.example.org/privkey.pem \
        --upstream 127.0.0.1:8001 --upstream 127.0.0.1:8002 > qipan.conf

--plain drops the TLS lines and listens on --listen as plain HTTP (TLS terminated in front
of nginx, or a local test)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx" / "qipan.conf.template"


def render(
    upstreams: list[str],
    server_name: str = "_",
    listen: str | None = None,
    certificate: str | None = None,
    key: str | None = None,
    plain: bool = False,
) -> str:
    if not upstreams:
        raise ValueError("at least one --upstream host:port")
    if not plain and not (certificate and key):
        raise ValueError("TLS needs --certificate and --key (or --plain)")
    lines = TEMPLATE.read_text().splitlines()
    if plain:
        lines = [line for line in lines if not line.rstrip().endswith("# tls")]
    else:
        lines = [line.replace("# tls", "").rstrip() for line in lines]
    values = {
        "@UPSTREAMS@": "\n".join(f"    server {u} max_fails=1 fail_timeout=5s;" for u in upstreams),
        "@SERVER_NAME@": server_name,
        "@LISTEN@": listen or ("8080" if plain else "443 ssl http2"),
        "@TLS_CERTIFICATE@": certificate or "",
        "@TLS_KEY@": key or "",
    }
    text = "\n".join(lines) + "\n"
    for name, value in values.items():
        text = text.replace(name, value)
    return text


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--upstream", action="append", default=[], help="host:port of a qipan serve process")
    parser.add_argument("--server-name", default="_")
    parser.add_argument(
        "--listen", default=None, help="what nginx listens on (default 443 ssl, or 8080 plain)"
    )
    parser.add_argument("--certificate", default=None)
    parser.add_argument("--key", default=None)
    parser.add_argument("--plain", action="store_true", help="no TLS lines")
    args = parser.parse_args()
    try:
        sys.stdout.write(
            render(args.upstream, args.server_name, args.listen, args.certificate, args.key, args.plain)
        )
    except ValueError as exc:
        raise SystemExit(str(exc)) from None


if __name__ == "__main__":
    main()
