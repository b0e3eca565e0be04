import { crc32, deflateSync } from "node:zlib";

// The toolbar and extensions-page icons, drawn at build time (no binary files in the repository):
// three crumbs, a large one and two small, in the colours of a bread crust on a transparent ground.
// PNG by hand: RGBA rows with filter 0, one deflated IDAT, CRC-32 from node:zlib.

export const ICON_SIZES = [16, 32, 48, 128] as const;

type Rgba = readonly [number, number, number, number];
const CRUST: Rgba = [176, 106, 38, 255];
const CRUMB: Rgba = [226, 162, 74, 255];

/** Circles in a 1x1 square: centre x, centre y, radius, colour. */
const CIRCLES: ReadonlyArray<readonly [number, number, number, Rgba]> = [
  [0.42, 0.56, 0.36, CRUST],
  [0.42, 0.56, 0.26, CRUMB],
  [0.8, 0.22, 0.13, CRUST],
  [0.86, 0.62, 0.09, CRUMB],
];

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function iconPng(size: number): Buffer {
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    for (let x = 0; x < size; x++) {
      const px = (x + 0.5) / size;
      const py = (y + 0.5) / size;
      let colour: Rgba = [0, 0, 0, 0];
      for (const [cx, cy, r, c] of CIRCLES) if ((px - cx) ** 2 + (py - cy) ** 2 <= r * r) colour = c;
      rows.set(colour, row + 1 + x * 4);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}
