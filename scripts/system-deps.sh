#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, when they are missing.
set -euo pipefail
need=()
# Headless Chromium for the UI tests (never downloaded by a test tool).
[ -x /usr/bin/chromium ] || need+=(chromium)
# GDAL judges every geospatial file we write or serve (gdalinfo, ogrinfo, gdallocationinfo, and
# the COG validator of its Python samples, run with Debian's /usr/bin/python3). Tests only:
# `npm start` never needs it.
[ -x /usr/bin/gdalinfo ] || need+=(gdal-bin)
/usr/bin/python3 -c 'import osgeo_utils.samples.validate_cloud_optimized_geotiff' 2>/dev/null ||
  need+=(python3-gdal)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "Missing Debian packages: ${need[*]}. Install them with: sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "== apt-get install ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
