/**
 * The one script a text page ships, inlined in <head> so the theme is set before first paint (no
 * flash of the wrong theme). By event delegation it also runs the theme control (system → the
 * opposite of the system's look → the system's look → system again, so the first press always
 * changes what the reader sees), the copy buttons (a heading's link, or a code block's commands)
 * and lets Escape dismiss a glossary tooltip. Everything else on a text page works without it.
 * Kept under 1 KB: the budget check measures it.
 */
export const themeScript = `(()=>{var d=document,r=d.documentElement,s=r.dataset,k="ds-theme",A="addEventListener",L,t,o;try{L=localStorage;t=L.getItem(k)}catch(e){}if(t=="dark"||t=="light")s.theme=t;r.classList.add("js");d[A]("click",e=>{var b=e.target.closest&&e.target.closest("button"),m,v;if(!b)return;if(b.hasAttribute("data-theme-toggle")){m=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";t=s.theme;t=t?t==m?"":m:m=="dark"?"light":"dark";t?s.theme=t:delete s.theme;try{t?L.setItem(k,t):L.removeItem(k)}catch(e){}}else if("copy"in b.dataset){v=b.dataset.copy;navigator.clipboard.writeText(v?location.href.split("#")[0]+"#"+v:[...b.closest(".code").querySelectorAll(".cmd")].map(c=>c.textContent).join("\\n")).then(()=>{b.dataset.copied="";setTimeout(()=>delete b.dataset.copied,1500)},()=>{})}});d[A]("keydown",e=>{e.key=="Escape"&&(s.tipsOff="")});o=()=>delete s.tipsOff;d[A]("focusin",o);d[A]("mousemove",o)})()`;
