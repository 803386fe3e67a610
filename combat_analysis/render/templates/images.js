// Records on <body> how many images the page has and how many failed to decode (read by the browser test).
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  document.body.setAttribute('data-images', String(imgs.length));
  document.body.setAttribute('data-images-broken', String(broken.length));
});
