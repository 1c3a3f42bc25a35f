// Carries ?next= into the form, and shows why a sign-in failed.
const q = new URLSearchParams(location.search);
const next = q.get("next");
if (next && next.startsWith("/") && !next.startsWith("//")) document.getElementById("next").value = next;
if (q.has("refused")) document.getElementById("error").hidden = false;
