#!/usr/bin/env bash
# Builds the MiniDFS test harness: tests/hdfs/minidfs/target/minidfs.jar (+ target/lib/).
# Needs Java 17+ and Maven; the first run downloads Hadoop's minicluster jars (~200 MB)
# into ~/.m2. Re-running is a no-op when the jar is newer than the sources.
# Usage: tests/hdfs/build_minidfs.sh [--force]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
project="$here/minidfs"
jar="$project/target/minidfs.jar"

for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "build_minidfs: '$tool' not found; install Java 17+ and Maven (e.g. apt-get install openjdk-17-jdk-headless maven)" >&2
    exit 3
  fi
done

if [[ "${1:-}" != "--force" && -f "$jar" && -d "$project/target/lib" ]]; then
  newest_src="$(find "$project/pom.xml" "$project/src" -newer "$jar" -type f | head -n1)"
  if [[ -z "$newest_src" ]]; then
    echo "build_minidfs: up to date: $jar"
    exit 0
  fi
fi

start=$(date +%s)
# -B: no colour/progress noise in CI logs; -q keeps only warnings and errors.
mvn -B -q -f "$project/pom.xml" -DskipTests package
echo "build_minidfs: built $jar in $(( $(date +%s) - start ))s"
