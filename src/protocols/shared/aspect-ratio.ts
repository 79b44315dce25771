/**
 * The aspect ratio nearest a `WIDTHxHEIGHT` size among those a wire accepts (Gemini image models
 * and Imagen take a ratio, OpenAI a size); undefined for `auto` or anything not a size, so the
 * upstream's default applies. Nearest on a log scale, so 1536x1024 (1.5) is 3:2, not 4:3.
 */
export function nearestAspectRatio(size: string, accepted: readonly string[]): string | undefined {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  if (match === null || Number(match[1]) === 0 || Number(match[2]) === 0) return undefined;
  const wanted = Math.log(Number(match[1]) / Number(match[2]));
  let best: string | undefined;
  let distance = Number.POSITIVE_INFINITY;
  for (const ratio of accepted) {
    const [width, height] = ratio.split(':').map(Number) as [number, number];
    const gap = Math.abs(Math.log(width / height) - wanted);
    if (gap < distance) [best, distance] = [ratio, gap];
  }
  return best;
}

/** The size OpenAI's current image models (gpt-image) take for an aspect ratio: square, landscape or portrait. */
export function openAiSizeForAspectRatio(ratio: string | undefined): string {
  const match = ratio === undefined ? null : /^(\d{1,3}):(\d{1,3})$/.exec(ratio);
  if (match === null) return 'auto';
  const [width, height] = [Number(match[1]), Number(match[2])];
  return width === height ? '1024x1024' : width > height ? '1536x1024' : '1024x1536';
}

/** A ratio the client named, when the wire accepts it as is; else the nearest it accepts; undefined when none was named. */
export function acceptedRatio(ratio: string | undefined, accepted: readonly string[]): string | undefined {
  if (ratio === undefined) return undefined;
  if (accepted.includes(ratio)) return ratio;
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(ratio);
  return match === null ? undefined : nearestAspectRatio(`${match[1]}x${match[2]}`, accepted);
}
