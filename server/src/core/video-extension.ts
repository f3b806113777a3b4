/** Whether a media URL names a video by its extension (otherwise `isVideo` declares it, spec 2.1). */
const VIDEO_EXTENSIONS = ['.mp4', '.mov', '.m4v', '.webm', '.avi', '.mkv'];

/** True when the path ends in a known video extension. */
export function hasVideoExtension(url: URL): boolean {
  const path = url.pathname.toLowerCase();
  return VIDEO_EXTENSIONS.some((extension) => path.endsWith(extension));
}
