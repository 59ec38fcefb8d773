// JavaScript that the C side of the browser build calls (emcc --js-library).
mergeInto(LibraryManager.library, {
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
