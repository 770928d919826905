/**
 * Runs `task` once the browser has painted the current frame. Work that needs the page laid out (focusing,
 * measuring) done in the middle of a render lays it out early, inside an already long task; after the paint
 * the layout is done and the work is cheap. Answers a function that cancels it.
 */
export function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
