/**
 * The one script a text page ships, inlined in <head> so the theme is set before first paint (no
 * flash of the wrong theme). It also wires the theme toggle and the heading copy-link buttons by
 * event delegation, and lets Escape dismiss a glossary tooltip. Kept under 1 KB: the budget test
 * measures it.
 */
export const themeScript = `(()=>{var d=document,r=d.documentElement,k="ds-theme",t,A="addEventListener";try{t=localStorage.getItem(k)}catch(e){}if(t=="dark"||t=="light")r.dataset.theme=t;r.classList.add("js");var q=()=>r.dataset.theme?r.dataset.theme=="dark":matchMedia("(prefers-color-scheme: dark)").matches,y=()=>{var b=d.querySelector("[data-theme-toggle]");b&&b.setAttribute("aria-pressed",q())};d[A]("DOMContentLoaded",y);d[A]("click",e=>{var b=e.target.closest&&e.target.closest("button");if(!b)return;if(b.hasAttribute("data-theme-toggle")){var n=q()?"light":"dark";r.dataset.theme=n;try{localStorage.setItem(k,n)}catch(e){}y()}else if(b.dataset.copy){var u=location.href.split("#")[0]+"#"+b.dataset.copy,s=()=>{b.dataset.copied="";setTimeout(()=>delete b.dataset.copied,1500)};navigator.clipboard?navigator.clipboard.writeText(u).then(s,s):s()}});d[A]("keydown",e=>{e.key=="Escape"&&(r.dataset.tipsOff="")});var o=()=>delete r.dataset.tipsOff;d[A]("focusin",o);d[A]("mousemove",o)})()`;
