#!/bin/bash
# time from spawn to first 200 /health
PORT=$((20000 + RANDOM % 10000))
start=$(date +%s%N)
PORT=$PORT LOG_LEVEL=silent node $NODEFLAGS dist/api/server.js > /tmp/startup.log 2>&1 &
pid=$!
until curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$PORT/health 2>/dev/null | grep -q 200; do sleep 0.01; done
end=$(date +%s%N)
echo "first /health after $(( (end - start) / 1000000 )) ms"
kill $pid; wait $pid 2>/dev/null
