package exposure

import (
	"cmp"
	"slices"
	"strings"
)

// The seed's algorithm (shared/seeds/001, detect_intent_with_confidence),
// kept as the reference the real detector is measured against. Its keyword
// table is the seed's: the rows the article prints in full are copied; the
// rows it elides ("省略") are rebuilt from its appendix A (representative
// keywords and counts). Tool names are mapped to this catalog.
var seedKeywords = map[string][]string{
	"browser_automation": {"打开网页", "浏览器", "网站操作", "网页", "URL", "url", "点击", "登录网站", "打开链接", "访问网站", "网站"},
	"file_operation":     {"读文件", "写文件", "整理", "复制", "移动", "文件夹", "目录", "文件", "重命名", "解压", "压缩", "文件内容"},
	"document_assembly": {"文档", "word", "docx", "组合", "生成文档", "整合", "组装", "报告", "保存到文档", "写到文档", "制作文档",
		"创建文档", "生成一份文档", "合并内容", "组装成文档"},
	"mcp_task":        {"browserbase", "csdn", "mcp", "写博客", "发博客", "博客"},
	"system_admin":    {"进程", "截图", "系统", "屏幕", "截屏", "cpu", "内存", "磁盘", "命令", "终端", "执行", "服务"},
	"daily_assistant": {"天气", "日程", "提醒", "定时", "闹钟", "日历", "气温"},
	"knowledge":       {"知识库", "文档搜索", "语义搜索", "RAG", "rag", "向量", "索引", "论文分析", "批量论文"},
	"life_management": {"日记", "记账", "健康", "账单", "花了", "消费", "支出", "收入", "预算", "心情", "运动"},
	"email_task":      {"邮件", "发邮件", "邮箱", "email", "收件"},
	"multimedia": {"语音", "OCR", "ocr", "图片", "识别文字", "文字识别", "录音", "音频", "转文字", "朗读", "视频", "照片",
		"语音输入", "语音合成", "听写", "截图识别", "扫描"},
	"document_processing": {"PDF", "pdf", "合并pdf", "拆分pdf", "加密pdf", "解密pdf", "格式转换", "转换格式", "docx转pdf", "md转docx",
		"转成pdf", "PPT", "ppt", "幻灯片", "演示文稿", "做PPT", "生成PPT", "转换", "导出"},
	"data_analysis": {"数据分析", "数据处理", "Excel分析", "excel", "xlsx", "图表", "柱状图", "折线图", "饼图", "散点图", "热力图",
		"数据可视化", "可视化", "仪表盘", "dashboard", "财务报表", "资产负债表", "利润表", "现金流量表", "财务分析", "财务报告", "报表"},
	"creative_content": {"写论文", "写文章", "写小说", "续写", "写作", "证件照", "一寸照", "二寸照", "换背景", "GIF", "gif", "动图",
		"制作gif", "图片合成", "思维导图", "脑图", "mindmap", "mind map", "篇论文", "篇文章", "篇小说"},
	"professional_docs": {"合同", "租赁合同", "劳动合同", "买卖合同", "服务合同", "合同模板", "生成合同", "简历", "个人简历", "求职简历",
		"简历模板", "生成简历"},
	"development": {"代码模板", "代码分析", "代码格式化", "生成测试", "代码生成", "代码骨架", "API模板", "代码复杂度", "format code",
		"analyze code", "格式化代码", "格式化这段", "格式化python"},
	"education": {"出题", "测验", "考试题", "练习题", "做题", "闪卡", "flashcard", "记忆卡", "学习计划", "复习计划", "学习安排",
		"概念解释", "解释概念", "什么是", "选择题", "填空题", "问答题", "数学题", "道题"},
	"research": {"文献检索", "搜论文", "查论文", "学术搜索", "引用", "参考文献", "文献综述", "OpenAlex", "相关论文", "搜索论文", "检索论文"},
}

var seedExcludeAssembly = []string{"写博客", "发博客", "写一篇博客", "发布博客", "登录", "注册", "搜索", "查询",
	"合并pdf", "拆分pdf", "格式转换", "转换格式", "PPT", "ppt", "幻灯片"}

// DetectSeed is the seed's detect_intent_with_confidence: score = matched
// keywords / the intent's keyword count, exclusion of document_assembly,
// and the seed's confidence bands. Reference only.
func DetectSeed(text string) Detection {
	lower := strings.ToLower(text)
	det := Detection{Lang: Language(text)}
	scores := map[string]float64{}
	matched := map[string][]string{}
	for _, in := range IntentNames {
		kws := seedKeywords[in]
		var m []string
		for _, kw := range kws {
			if strings.Contains(lower, kw) {
				m = append(m, kw)
			}
		}
		if len(m) > 0 {
			scores[in] = float64(len(m)) / float64(len(kws))
			matched[in] = m
		}
	}
	if _, ok := scores["document_assembly"]; ok {
		for _, kw := range seedExcludeAssembly {
			if strings.Contains(lower, kw) {
				delete(scores, "document_assembly")
				delete(matched, "document_assembly")
				break
			}
		}
	}
	if len(scores) == 0 {
		return det
	}
	type kv struct {
		k string
		v float64
	}
	var sorted []kv
	for _, in := range IntentNames { // table order breaks ties, like Python's stable sort
		if v, ok := scores[in]; ok {
			sorted = append(sorted, kv{in, v})
		}
	}
	slices.SortStableFunc(sorted, func(a, b kv) int { return cmp.Compare(b.v, a.v) })
	det.Primary = sorted[0].k
	top := sorted[0].v
	det.Intents = []string{det.Primary}
	if len(sorted) == 1 {
		det.Confidence = 0.8 + top*0.2
	} else {
		second := sorted[1].v
		gap := top - second
		if gap >= 0.3 {
			det.Confidence = min(0.5+gap, 0.8)
			if second >= 0.15 {
				det.Intents = append(det.Intents, sorted[1].k)
			}
		} else {
			det.Confidence = 0.3 + gap*0.5
			det.Intents = det.Intents[:0]
			for _, p := range sorted {
				if p.v >= 0.1 {
					det.Intents = append(det.Intents, p.k)
				}
			}
			if len(det.Intents) == 0 { // the seed's set may be empty; keep the primary
				det.Intents = []string{det.Primary}
			}
		}
	}
	det.Confidence = round3(min(det.Confidence, 1))
	det.Scores = map[string]float64{}
	for k, v := range scores {
		det.Scores[k] = round3(v)
	}
	det.Matched = matched
	return det
}

// RouteSeed routes with the seed's detector and this package's views: the
// seed's algorithm mapped to the catalog, for comparison.
func (r *Router) RouteSeed(text string) Decision { return r.Decide(DetectSeed(text)) }
