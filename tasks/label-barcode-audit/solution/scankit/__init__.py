"""scankit: reads 1D barcodes (EAN-13, Code 128 B/C) from grey PNG label scans."""
