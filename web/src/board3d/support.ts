/**
 * Whether this browser can draw the 3D board (WebGL 2, which three.js needs). Kept apart from
 * the board so a page can ask before it loads three.js, e.g.
 * `if (webglSupported()) { const { Board3D } = await import('./board3d'); … }`.
 */
export function webglSupported(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2');
    if (!gl) return false;
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return true;
  } catch {
    return false;
  }
}
