"""Georeferencing: GDAL-style geotransforms [x0, dx, rx, y0, ry, dy] (origin at the outer corner
of the upper-left pixel)."""


def pixel_centre(gt, col, row):
    """Ground coordinates of the centre of pixel (col, row)."""
    x = gt[0] + (col + 0.5) * gt[1] + (row + 0.5) * gt[2]
    y = gt[3] + (col + 0.5) * gt[4] + (row + 0.5) * gt[5]
    return x, y


def pixel_area_m2(gt):
    return abs(gt[1] * gt[5] - gt[2] * gt[4])
