/** The product logo: a shield with a stylised campus building (drawn here, no third-party art). */
export const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1677ff"/><stop offset="1" stop-color="#0b3d91"/></linearGradient></defs>
<path d="M32 3 L58 13 V31 C58 46 47 56 32 61 C17 56 6 46 6 31 V13 Z" fill="url(#g)"/>
<path d="M16 44 V28 L32 19 L48 28 V44 Z" fill="#fff" opacity="0.95"/>
<rect x="21" y="31" width="5" height="13" fill="#1677ff"/><rect x="29.5" y="31" width="5" height="13" fill="#1677ff"/><rect x="38" y="31" width="5" height="13" fill="#1677ff"/>
<rect x="14" y="44" width="36" height="3" fill="#fff"/>
</svg>
`;

/** The login background: a soft gradient with a skyline, drawn with @napi-rs/canvas (loaded here, for the demo's seed only). */
export async function drawLoginBackground(): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const width = 1600;
  const height = 900;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const sky = ctx.createLinearGradient(0, 0, width, height);
  sky.addColorStop(0, '#0b3d91');
  sky.addColorStop(0.55, '#1677ff');
  sky.addColorStop(1, '#69b1ff');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = 'rgba(255,255,255,0.08)';
  for (let i = 0; i < 6; i += 1) {
    ctx.beginPath();
    ctx.arc(200 + i * 260, 180 + (i % 2) * 90, 120 + i * 14, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = 'rgba(5,30,80,0.55)';
  let x = 0;
  let seed = 7;
  while (x < width) {
    seed = (seed * 9301 + 49297) % 233280;
    const w = 60 + (seed % 90);
    const h = 120 + (seed % 260);
    ctx.fillRect(x, height - h, w - 8, h);
    x += w;
  }
  ctx.fillStyle = 'rgba(255,255,255,0.35)';
  for (let wx = 10; wx < width; wx += 28) {
    for (let wy = height - 100; wy < height - 20; wy += 30) {
      if ((wx * 7 + wy) % 3 === 0) ctx.fillRect(wx, wy, 8, 12);
    }
  }
  return canvas.toBuffer('image/png');
}
