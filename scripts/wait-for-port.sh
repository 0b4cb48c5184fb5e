#!/usr/bin/env bash
# Waits until something listens on 127.0.0.1:PORT, for at most SECONDS (default 60);
# fails when nothing does:  scripts/wait-for-port.sh PORT [SECONDS]
set -euo pipefail
port=$1 deadline=$((SECONDS + ${2:-60}))
until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || exit 1
  sleep 0.1
done
