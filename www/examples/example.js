// The example page's one bit of script (a module file: the page's Content-Security-Policy
// allows no inline script): the OLLAMA_ORIGINS command names this page's own origin.
document.getElementById('origin').textContent = location.origin;
