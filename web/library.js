// JavaScript that the C side of the browser build calls (emcc --js-library).
mergeInto(LibraryManager.library, {
  // emscripten's own, but for two sizes it leaves alone: setting a
  // canvas's width or height makes WebGL allocate its drawing buffer again
  // (even at the same size), which where GL runs on the CPU took a fifth
  // of a second on the way to the first frame. The page has made the
  // canvas the window's size already; and SDL sets it to 1x1 only to see
  // whether CSS sizes it, which on this page CSS always does (the answer
  // is the same without the 1x1).
  emscripten_set_canvas_element_size__deps: ['$findCanvasEventTarget'],
  emscripten_set_canvas_element_size: function(target, width, height) {
    var canvas = findCanvasEventTarget(target);
    if (!canvas) return -4; // EMSCRIPTEN_RESULT_UNKNOWN_TARGET
    if (width == 1 && height == 1) return 0;
    if (canvas.width != width) canvas.width = width;
    if (canvas.height != height) canvas.height = height;
    return 0;
  },

  // Offers what the canvas shows as a PNG download named name (a C
  // string). Returns 1, or 0 when the browser will not give the canvas.
  bp_web_download_canvas: function(name) {
    try {
      var a = document.createElement('a');
      a.download = UTF8ToString(name);
      a.href = Module['canvas'].toDataURL('image/png');
      a.click();
      return 1;
    } catch (e) {
      return 0;
    }
  },
});
