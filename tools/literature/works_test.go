package literature

import "strings"

func names(s ...string) []Author {
	out := make([]Author, len(s))
	for i, n := range s {
		out[i] = splitName(n)
	}
	return out
}

// citeWorks are the eight works the citation strings are checked on.
var citeWorks = map[string]Work{
	"journal": {Title: "Deep learning", Authors: names("Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"), Year: 2015, Type: "article",
		Venue: "Nature", Volume: "521", Issue: "7553", Pages: "436-444", DOI: "10.1038/nature14539"},
	"two_authors_particle": {Title: "Visualizing Data using t-SNE", Authors: names("Laurens van der Maaten", "Geoffrey Hinton"), Year: 2008, Type: "article",
		Venue: "Journal of Machine Learning Research", Volume: "9", Issue: "86", Pages: "2579-2605"},
	"conference": {Title: "Attention is All you Need", Authors: names("Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez", "Łukasz Kaiser", "Illia Polosukhin"),
		Year: 2017, Type: "conference", Venue: "Advances in Neural Information Processing Systems 30", Pages: "5998-6008", Publisher: "Curran Associates",
		URL: "https://papers.nips.cc/paper/7181-attention-is-all-you-need"},
	"preprint": {Title: "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", Authors: names("Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"),
		Year: 2018, Date: "2018-10-11", Type: "preprint", ArxivID: "1810.04805", DOI: "10.48550/arXiv.1810.04805"},
	"chapter": {Title: "Practical Recommendations for Gradient-Based Training of Deep Architectures", Authors: names("Yoshua Bengio"), Year: 2012, Type: "chapter",
		Venue: "Neural Networks: Tricks of the Trade", Pages: "437-478", Publisher: "Springer", DOI: "10.1007/978-3-642-35289-8_26"},
	"book": {Title: "Deep Learning", Authors: names("Ian Goodfellow", "Yoshua Bengio", "Aaron Courville"), Year: 2016, Type: "book", Publisher: "MIT Press"},
	"many_authors": {Title: "A survey of large language models for code", Authors: names(
		"Ada Abbott", "Ben Brooks", "Cara Chen", "Dan Dietz", "Eva Evans", "Finn Fox", "Gia Gupta", "Hal Hughes", "Ivy Ito", "Jon Jung",
		"Kai Kim", "Lea Lopez", "Max Moore", "Nia Nair", "Oto Ortiz", "Pia Park", "Quin Quade", "Rae Ross", "Sam Sato", "Tia Tran",
		"Uma Ueda", "Vic Vega", "Wes Wu"), Year: 2024, Type: "article", Venue: "ACM Computing Surveys", Volume: "56", Issue: "9", Pages: "1-38", DOI: "10.1145/0000000.0000001"},
	"chinese": {Title: "基于深度学习的中文分词方法研究", Authors: []Author{fromParts("晓明", "王"), fromParts("华", "李"), splitName("张 伟"), splitName("刘洋")},
		Year: 2019, Type: "article", Venue: "中文信息学报", Volume: "33", Issue: "5", Pages: "1-10", DOI: "10.3969/j.issn.1003-0077.2019.05.001"},
}

var manyAPA = strings.Join([]string{"Abbott, A.", "Brooks, B.", "Chen, C.", "Dietz, D.", "Evans, E.", "Fox, F.", "Gupta, G.", "Hughes, H.", "Ito, I.", "Jung, J.",
	"Kim, K.", "Lopez, L.", "Moore, M.", "Nair, N.", "Ortiz, O.", "Park, P.", "Quade, Q.", "Ross, R.", "Sato, S."}, ", ") + ", . . . Wu, W."
