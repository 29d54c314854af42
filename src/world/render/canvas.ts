import { PNG } from "pngjs";

export type Rgb = readonly [number, number, number];

/** A tiny RGB canvas over a region of the map, `scale` pixels per tile. */
export class Canvas {
  readonly png: PNG;

  constructor(
    readonly x0: number,
    readonly y0: number,
    readonly tilesW: number,
    readonly tilesH: number,
    readonly scale: number,
  ) {
    this.png = new PNG({ width: tilesW * scale, height: tilesH * scale });
  }

  /** Paints one pixel (pixel coordinates). */
  pixel(px: number, py: number, c: Rgb): void {
    const { width, height, data } = this.png;
    if (px < 0 || py < 0 || px >= width || py >= height) return;
    const i = (py * width + px) * 4;
    data[i] = c[0];
    data[i + 1] = c[1];
    data[i + 2] = c[2];
    data[i + 3] = 255;
  }

  /** Fills a square of `size` tiles centred on tile (x, y); at least one pixel. */
  mark(x: number, y: number, c: Rgb, size = 1): void {
    const s = Math.max(1, Math.round(size * this.scale));
    const cx = Math.floor((x - this.x0 + 0.5) * this.scale);
    const cy = Math.floor((y - this.y0 + 0.5) * this.scale);
    for (let dy = 0; dy < s; dy++)
      for (let dx = 0; dx < s; dx++) this.pixel(cx - (s >> 1) + dx, cy - (s >> 1) + dy, c);
  }

  /** A straight line between tile centres, `width` pixels thick. */
  line(ax: number, ay: number, bx: number, by: number, c: Rgb, width = 1): void {
    const x0 = (ax - this.x0 + 0.5) * this.scale;
    const y0 = (ay - this.y0 + 0.5) * this.scale;
    const x1 = (bx - this.x0 + 0.5) * this.scale;
    const y1 = (by - this.y0 + 0.5) * this.scale;
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let k = 0; k <= steps; k++) {
      const px = Math.round(x0 + ((x1 - x0) * k) / steps);
      const py = Math.round(y0 + ((y1 - y0) * k) / steps);
      for (let dy = 0; dy < width; dy++) for (let dx = 0; dx < width; dx++) this.pixel(px + dx, py + dy, c);
    }
  }

  /** A hollow square ring around tile (x, y). */
  ring(x: number, y: number, c: Rgb, size: number): void {
    const r = Math.max(2, Math.round((size * this.scale) / 2));
    const cx = Math.floor((x - this.x0 + 0.5) * this.scale);
    const cy = Math.floor((y - this.y0 + 0.5) * this.scale);
    for (let k = -r; k <= r; k++) {
      this.pixel(cx + k, cy - r, c);
      this.pixel(cx + k, cy + r, c);
      this.pixel(cx - r, cy + k, c);
      this.pixel(cx + r, cy + k, c);
    }
  }

  toBuffer(): Buffer {
    return PNG.sync.write(this.png);
  }
}
