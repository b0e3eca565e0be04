// The account site of the task controller's end-to-end test: a signed-in user (localStorage) sees
// a menu, an account area with billing and invoices, a search and a paginated product list. Months
// are in UTC, as the runner counts "last month".
(function () {
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  window.siteMonth = function (offset) {
    var now = new Date();
    var d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
    var iso = d.getUTCFullYear() + "-" + String(d.getUTCMonth() + 1).padStart(2, "0");
    return { iso: iso, label: MONTHS[d.getUTCMonth()] + " " + d.getUTCFullYear() };
  };
  window.monthLabel = function (iso) {
    var parts = String(iso).split("-");
    return MONTHS[Number(parts[1]) - 1] + " " + parts[0];
  };
  var page = location.pathname.split("/").pop();
  if (page !== "login.html" && !localStorage.getItem("site.user")) location.replace("login.html");
  window.signOut = function () {
    localStorage.removeItem("site.user");
  };
})();
